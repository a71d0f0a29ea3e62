/**
 * What an assigned action refers to in the recreated job: the Session stack entry of an
 * ENV_ENTER / ENV_EXIT (ids as stackFor gives them) and the step and parameter values of a
 * TASK_RUN. A reference the job does not have is a typed problem, reported as the action's
 * failure, never thrown.
 */
import type { AssignedAction } from "../../lib/farm/protocol";
import { type Job, type JobStep, type StackEntry, stackFor, type TaskParameterSet, type TaskParameterType } from "../../lib/openjd";

export type Target<T> = { ok: true; value: T } | { ok: false; message: string };

const TASK_PARAMETER_TYPES: readonly string[] = ["INT", "FLOAT", "STRING", "PATH", "CHUNK[INT]"] satisfies TaskParameterType[];

/** The stack entry `action.environmentId`, among the stack of `action.stepName` or, without one, of any step. */
export function environmentEntry(job: Job, action: AssignedAction): Target<StackEntry> {
  const id = action.environmentId;
  if (!id) return { ok: false, message: `${action.kind} ${action.actionId} names no environment` };
  let steps = job.steps;
  if (action.stepName !== undefined) {
    const step = findStep(job, action.stepName);
    if (!step.ok) return step;
    steps = [step.value];
  }
  for (const step of steps) {
    const entry = stackFor(job, step).find((e) => e.id === id);
    if (entry) return { ok: true, value: entry };
  }
  const where = action.stepName !== undefined ? `step '${action.stepName}'` : "any step";
  return { ok: false, message: `job '${job.name}' has no environment '${id}' in the Session stack of ${where}` };
}

export function findStep(job: Job, stepName: string | undefined): Target<JobStep> {
  if (stepName === undefined) return { ok: false, message: "the task names no step" };
  const step = job.steps.find((s) => s.name === stepName);
  return step ? { ok: true, value: step } : { ok: false, message: `job '${job.name}' has no step '${stepName}'` };
}

/** The task's parameter values, checked against the step's task parameter names and types. */
export function taskParameters(step: JobStep, action: AssignedAction): Target<TaskParameterSet> {
  const given = action.parameters ?? {};
  const set: TaskParameterSet = {};
  for (const [name, value] of Object.entries(given)) {
    if (!TASK_PARAMETER_TYPES.includes(value.type)) return { ok: false, message: `task parameter ${name} has unknown type '${value.type}'` };
    set[name] = { type: value.type as TaskParameterType, value: value.value };
  }
  const missing = step.taskParameters.filter((p) => !Object.hasOwn(given, p.name)).map((p) => p.name);
  if (missing.length > 0) return { ok: false, message: `no value for task parameters of step '${step.name}': ${missing.join(", ")}` };
  const unknown = Object.keys(given).filter((name) => !step.taskParameters.some((p) => p.name === name));
  if (unknown.length > 0) return { ok: false, message: `step '${step.name}' has no task parameters ${unknown.join(", ")}` };
  return { ok: true, value: set };
}

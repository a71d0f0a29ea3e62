/**
 * Running a job's tasks in one local Session (what `loom run` and the conformance runner do):
 * environment templates, then job environments, then the step's environments are entered;
 * between steps only the environments that differ are exited and entered; after the last task,
 * or the first failure, every entered environment is exited in reverse order.
 */
import { isWrappingEnvironment, type Job, type JobStep, type PathMappingRule, type StackEntry, stackFor, type TaskParameterSet } from "../../lib/openjd";
import type { EventSink, SessionEndStatus } from "./events";
import { Session } from "./session";
import type { ProcessLauncher } from "./subprocess";

export { stackFor };

export interface RunJobOptions {
  job: Job;
  /** Run only this step (default: every step, in dependency order). */
  stepName?: string;
  /** With stepName: run every task of the steps it depends on first (transitively). */
  runDependencies?: boolean;
  /** With stepName: run exactly these tasks instead of its parameter space. */
  tasks?: readonly TaskParameterSet[];
  /** With stepName: run at most this many of its tasks (0 = all). */
  maximumTasks?: number;
  pathMappingRules?: readonly PathMappingRule[];
  preserve?: boolean;
  sessionId?: string;
  rootDirectory?: string;
  baseEnvironment?: Readonly<Record<string, string>>;
  /** Passed to the Session (the worker's task shield, in tests and bench:shield). */
  launcher?: ProcessLauncher;
  signal?: AbortSignal;
  onEvent: EventSink;
}

export interface RunJobResult {
  status: SessionEndStatus;
  tasksRun: number;
  durationMs: number;
  workingDirectory: string;
  preserved: boolean;
  /** Why the run did not start, when it did not. */
  refused?: string;
}

export async function runJob(options: RunJobOptions): Promise<RunJobResult> {
  const started = Date.now();
  const plan = planWork(options);
  const refusal = wrapRefusal(options.job);
  if (refusal) {
    options.onEvent({ type: "log", actionId: null, line: `ERROR: ${refusal}`, time: Date.now() });
    return { status: "FAILED", tasksRun: 0, durationMs: Date.now() - started, workingDirectory: "", preserved: false, refused: refusal };
  }
  const session = await Session.start(options);
  const onAbort = () => session.cancel();
  options.signal?.addEventListener("abort", onAbort);
  if (options.signal?.aborted) session.cancel();
  let tasksRun = 0;
  try {
    for (const { step, task } of plan) {
      if (session.state !== "ready" || options.signal?.aborted) break;
      if (!(await switchStack(session, stackFor(options.job, step)))) break;
      if ((await session.runTask(step, task)) === "SUCCEEDED") tasksRun++;
    }
  } finally {
    // Every environment entered or attempted is exited, innermost first, even after failures.
    for (const entry of [...session.entered].reverse()) await session.exit(entry.id);
    options.signal?.removeEventListener("abort", onAbort);
  }
  const status = await session.end();
  return { status, tasksRun, durationMs: Date.now() - started, workingDirectory: session.directory.path, preserved: options.preserve ?? false };
}

/** Exits what differs from the wanted stack and enters what is missing; false when something failed. */
async function switchStack(session: Session, wanted: readonly StackEntry[]): Promise<boolean> {
  let common = 0;
  while (common < session.entered.length && common < wanted.length && session.entered[common]?.id === wanted[common]?.id) common++;
  for (const entry of [...session.entered.slice(common)].reverse()) {
    if ((await session.exit(entry.id)) !== "SUCCEEDED") return false;
  }
  for (const entry of wanted.slice(common)) {
    if ((await session.enter(entry)) !== "SUCCEEDED") return false;
  }
  return session.state === "ready";
}

/** The (step, task) pairs to run, in order. */
function planWork(options: RunJobOptions): Array<{ step: JobStep; task: TaskParameterSet }> {
  const { job } = options;
  let steps = job.steps;
  if (options.stepName !== undefined) {
    const target = job.steps.find((s) => s.name === options.stepName);
    if (!target) throw new Error(`no step named '${options.stepName}' in job '${job.name}'`);
    steps = options.runDependencies ? [...dependenciesOf(job, target), target] : [target];
  }
  return steps.flatMap((step) => {
    const isTarget = step.name === options.stepName;
    if (isTarget && options.tasks) return options.tasks.map((task) => ({ step, task }));
    const all = [...step.parameterSpace];
    const limit = isTarget && options.maximumTasks && options.maximumTasks > 0 ? options.maximumTasks : all.length;
    return all.slice(0, limit).map((task) => ({ step, task }));
  });
}

function dependenciesOf(job: Job, step: JobStep, seen = new Set<string>()): JobStep[] {
  const out: JobStep[] = [];
  for (const name of step.dependencies) {
    if (seen.has(name)) continue;
    seen.add(name);
    const dependency = job.steps.find((s) => s.name === name);
    if (!dependency) continue;
    out.push(...dependenciesOf(job, dependency, seen), dependency);
  }
  return out;
}

/** At most one environment of any Session stack may define wrap hooks (RFC 0008); checked before anything is entered. */
function wrapRefusal(job: Job): string | null {
  for (const step of job.steps) {
    const wrapping = stackFor(job, step).filter((e) => isWrappingEnvironment(e.environment));
    if (wrapping.length > 1) {
      return `the Session for step '${step.name}' would have ${wrapping.length} environments with wrap hooks (${wrapping.map((e) => e.environment.name).join(", ")}); at most one is allowed`;
    }
  }
  return null;
}

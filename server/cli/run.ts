/**
 * `loom run FILE [--step S] [-p K=V]… [-tp K=V]… [--tasks JSON] [--maximum-tasks N]
 * [--run-dependencies] [--environment FILE]… [--path-mapping-rules FILE|JSON] [--preserve] [--json]`:
 * runs a job's tasks in one local Session, printing its log (or, with --json, one event per
 * line). Exit 0 when the Session succeeded, 1 otherwise, 2 for usage errors. The first SIGINT or
 * SIGTERM cancels the running action and exits the environments; a second one quits at once.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { createJob, describeError, type EnvironmentTemplate, type Job, type JobStep, locateJobErrors, type PathMappingRule, taskOrder, validatePathMappingRules } from "../../lib/openjd";
import type { SessionEvent } from "../session/events";
import { runJob } from "../session/run-job";
import { parseArgs, UsageError } from "./args";
import type { CliIo } from "./io";
import { parseJobParameters } from "./job-params";
import { FileProblem, readTemplateFile } from "./read-template";
import { parseTaskArguments } from "./task-params";

export const RUN_USAGE =
  "usage: loom run FILE [--step STEP] [-p KEY=VALUE]... [-tp KEY=VALUE]... [--tasks JSON] [--maximum-tasks N] [--run-dependencies] [--environment FILE]... [--path-mapping-rules FILE|JSON] [--preserve] [--json]";

export async function runRun(argv: readonly string[], io: CliIo, signals: AbortSignal | null = null): Promise<number> {
  const args = parseArgs(argv, {
    values: ["--step", "--tasks", "--maximum-tasks", "--path-mapping-rules"],
    repeated: ["--job-param", "--task-param", "--environment"],
    booleans: ["--run-dependencies", "--preserve", "--json"],
    aliases: { "-p": "--job-param", "-tp": "--task-param", "--env": "--environment" },
  });
  if (args.positionals.length !== 1) throw new UsageError("run takes exactly one FILE");
  const taskParams = args.repeated.get("--task-param") ?? [];
  const exclusive = [taskParams.length > 0, args.values.has("--tasks"), args.values.has("--maximum-tasks")].filter(Boolean).length;
  if (exclusive > 1) throw new UsageError("-tp, --tasks and --maximum-tasks cannot be combined");
  const stepName = args.values.get("--step");
  if ((taskParams.length > 0 || args.values.has("--tasks") || args.values.has("--maximum-tasks")) && stepName === undefined) {
    throw new UsageError("-tp, --tasks and --maximum-tasks need --step");
  }
  const maximumTasks = args.values.has("--maximum-tasks") ? Number(args.values.get("--maximum-tasks")) : undefined;
  if (maximumTasks !== undefined && !(Number.isInteger(maximumTasks) && maximumTasks >= 0)) throw new UsageError("--maximum-tasks takes a whole number (0 = all)");
  const asJson = args.booleans.has("--json");
  const fail = (message: string, errors: Array<{ path: string; line: number | null; column: number | null; message: string }> = []) => {
    if (asJson) io.out(JSON.stringify({ type: "result", status: "error", message, errors }));
    else {
      io.out(`ERROR: ${message}`);
      for (const e of errors) io.out(`  ${describeError(e)}`);
    }
    return 1;
  };

  const file = args.positionals[0] as string;
  let loaded;
  const environments: EnvironmentTemplate[] = [];
  try {
    loaded = readTemplateFile(file, { cwd: io.cwd });
    for (const envFile of args.repeated.get("--environment") ?? []) {
      const env = readTemplateFile(envFile, { cwd: io.cwd, expected: "environment" });
      if (!env.template || env.template.kind !== "environment") return fail(`'${envFile}' failed checks: ${env.errors.length} error(s)`, env.errors);
      environments.push(env.template.template);
    }
  } catch (error) {
    if (error instanceof FileProblem) return fail(error.message);
    throw error;
  }
  if (!loaded.template) return fail(`'${file}' failed checks: ${loaded.errors.length} error(s)`, loaded.errors);
  if (loaded.template.kind !== "job") return fail(`'${file}' is an environment template; run needs a job template`);
  const created = createJob({
    template: loaded.template.template,
    environmentTemplates: environments,
    parameterValues: parseJobParameters(args.repeated.get("--job-param") ?? [], io.cwd),
    templateDir: loaded.directory,
    workingDir: io.cwd,
  });
  if (!created.ok) {
    return fail(`could not create a job from '${file}'`, locateJobErrors(created.errors, { template: loaded.source, environments: [], parametersLabel: "parameters" }));
  }
  const job = inDependencyOrder(created.job);
  const step = stepName === undefined ? undefined : job.steps.find((s) => s.name === stepName);
  if (stepName !== undefined && !step) return fail(`no step named '${stepName}' in job '${job.name}'`);
  let tasks;
  if (step && (taskParams.length > 0 || args.values.has("--tasks"))) {
    const parsed = parseTaskArguments(step, taskParams, args.values.get("--tasks"), io.cwd);
    if (!parsed.ok) return fail(parsed.message);
    tasks = parsed.tasks;
  }
  let rules: PathMappingRule[] = [];
  const rulesArg = args.values.get("--path-mapping-rules");
  if (rulesArg !== undefined) {
    const loadedRules = readPathMappingRules(rulesArg, io.cwd);
    if (!loadedRules.ok) return fail(loadedRules.message);
    rules = loadedRules.rules;
  }

  const result = await runJob({
    job,
    stepName,
    runDependencies: args.booleans.has("--run-dependencies"),
    tasks,
    maximumTasks,
    pathMappingRules: rules,
    preserve: args.booleans.has("--preserve"),
    sessionId: "loom-run",
    signal: signals ?? undefined,
    onEvent: asJson ? (event: SessionEvent) => io.out(JSON.stringify(event)) : humanPrinter(io, job.name),
  });
  if (asJson) {
    io.out(
      JSON.stringify({
        type: "result",
        status: result.status,
        job: job.name,
        step: stepName ?? null,
        durationMs: result.durationMs,
        tasksRun: result.tasksRun,
        ...(result.preserved ? { workingDirectory: result.workingDirectory } : {}),
      }),
    );
  } else {
    io.out("");
    io.out("--- Results of local session ---");
    io.out("");
    io.out(result.status === "SUCCEEDED" ? "Session ended successfully" : `Session ended ${result.status === "CANCELED" ? "canceled" : "with errors"}; see the log above for details`);
    if (result.refused) io.out(result.refused);
    io.out("");
    io.out(`Job: ${job.name}`);
    if (stepName !== undefined) io.out(`Step: ${stepName}`);
    io.out(`Duration: ${(result.durationMs / 1000).toFixed(3)} seconds`);
    io.out(`Tasks run: ${result.tasksRun}`);
    if (result.preserved) io.out(`Working directory preserved at: ${result.workingDirectory}`);
  }
  return result.status === "SUCCEEDED" ? 0 : 1;
}

/**
 * TASK_DEPENDENCIES in one Session: steps run in dependency order, which meets every dependency
 * between steps; a step that waits for its own tasks runs them in a topological order that is
 * parameter-space order wherever its edges allow. runJob takes a step's tasks from its parameter
 * space, so the space is handed over reordered (answering every other question as itself), and
 * the self-dependency is left out of `dependencies` so --run-dependencies does not run the step
 * once as its own dependency.
 */
export function inDependencyOrder(job: Job): Job {
  const graph = job.taskGraph;
  if (!graph) return job;
  const steps = job.steps.map((step) => {
    const index = job.template.steps.indexOf(step.template);
    if (!graph.steps[index]?.some((d) => d.self)) return step;
    const order = taskOrder(graph, index, step.parameterSpace.count);
    return { ...step, dependencies: step.dependencies.filter((d) => d !== step.name), parameterSpace: reordered(step.parameterSpace, order) };
  });
  return { ...job, steps };
}

function reordered(space: JobStep["parameterSpace"], order: readonly number[]): JobStep["parameterSpace"] {
  return new Proxy(space, {
    get(target, property) {
      if (property === Symbol.iterator) {
        return function* () {
          for (const index of order) yield target.at(index);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      // Its methods read private fields: they must run on the space itself, not on the proxy.
      return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

function readPathMappingRules(arg: string, cwd: string): { ok: true; rules: PathMappingRule[] } | { ok: false; message: string } {
  let text = arg;
  if (!arg.trim().startsWith("{")) {
    const path = arg.startsWith("file://") ? arg.slice("file://".length) : arg;
    try {
      text = readFileSync(resolve(cwd, path), "utf8");
    } catch {
      return { ok: false, message: `path mapping rules file '${path}' could not be read` };
    }
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `path mapping rules are not valid JSON: ${(error as Error).message}` };
  }
  const validated = validatePathMappingRules(document);
  return validated.ok ? { ok: true, rules: validated.rules } : { ok: false, message: validated.message };
}

function humanPrinter(io: CliIo, jobName: string): (event: SessionEvent) => void {
  const stamp = (time: number) => new Date(time).toISOString().slice(11, 23);
  return (event) => {
    switch (event.type) {
      case "session_started":
        io.out(`Running job '${jobName}'`);
        io.out(`${stamp(event.time)}  Session ${event.sessionId} started in ${event.workingDirectory}`);
        break;
      case "action_started": {
        const what = event.kind === "ENV_ENTER" ? `Entering environment '${event.name}'` : event.kind === "ENV_EXIT" ? `Exiting environment '${event.name}'` : `Running a task of step '${event.name}'`;
        io.out(`${stamp(event.time)}  === ${what}${event.wrappedBy ? ` (through ${event.wrappedBy})` : ""}`);
        break;
      }
      case "log":
        io.out(`${stamp(event.time)}  ${event.line}`);
        break;
      case "action_ended":
        io.out(
          `${stamp(event.time)}  --- ${event.status}${event.exitCode !== null ? ` (exit code ${event.exitCode})` : ""} after ${(event.durationMs / 1000).toFixed(2)} s${event.failMessage ? `: ${event.failMessage}` : ""}`,
        );
        break;
      case "session_ended":
        io.out(`${stamp(event.time)}  Session ended: ${event.status}${event.preserved ? ` (working directory kept: ${event.workingDirectory})` : ""}`);
        break;
      default:
        break;
    }
  };
}

/** The `loom` command: dispatches verbs; usage errors exit 2, failures 1, success 0. */
import { UsageError } from "./args";
import { CHECK_USAGE, runCheck } from "./check";
import { CONFORMANCE_USAGE, runConformance } from "./conformance";
import { processIo, type CliIo } from "./io";
import { RUN_USAGE, runRun } from "./run";
import { runServe, SERVE_USAGE } from "./serve";
import { runWorker, WORKER_USAGE } from "./worker";
import { runSubmit, SUBMIT_USAGE } from "./submit";
import { JOB_USAGE, runJob } from "./job";
import { serverEnv } from "../env";
import { onStopSignals } from "./stop-signals";
import { runSummary, SUMMARY_USAGE } from "./summary";
import { runServeWeb } from "./headless";
import { configDirFrom } from "./credentials";
import type { FarmAccess } from "./farm-client";

const HELP = `loom — the Loom OpenJD farm command

  ${CHECK_USAGE.replace("usage: ", "")}
      validate a job or environment template
  ${SUMMARY_USAGE.replace("usage: ", "")}
      show the job a template creates: steps, dependencies, tasks, environments
  ${RUN_USAGE.replace("usage: ", "")}
      run a job's tasks in one local Session and print its log
  ${SERVE_USAGE.replace("usage: ", "")}
      the farm: server, scheduler and local workers (what npm start runs)
  ${SUBMIT_USAGE.replace("usage: ", "")}
      submit a job (template or bundle) to a Loom server; prints its id
  ${JOB_USAGE.replace("usage: ", "")}
      a job on a Loom server: show, wait for it, its logs, wrangler actions
  ${WORKER_USAGE.replace("usage: ", "")}
      a worker agent: runs Sessions for a farm server
  ${CONFORMANCE_USAGE.replace("usage: ", "")}
      run OpenJD conformance cases (job_templates/, env_templates/, jobs/)

Exit codes: 0 success, 1 failure, 2 usage error.`;

export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  const [verb, ...rest] = argv;
  try {
    switch (verb) {
      case "check":
        return runCheck(rest, io);
      case "summary":
        return runSummary(rest, io);
      case "run":
        return await withInterrupts(io, (signal) => runRun(rest, io, signal));
      case "submit":
        return await runSubmit(rest, io, farmServer(io));
      case "job":
        return await runJob(rest, io, farmServer(io));
      case "worker":
        return await runWorker(rest, io);
      case "serve":
        return await withStopSignals(io, (stop, force) => runServe(rest, io, stop, force));
      case "serve-web":
        // Internal: the portal's server process that `loom serve` starts.
        return await withStopSignals(io, (stop) => runServeWeb(rest, io, stop));
      case "conformance":
        return await runConformance(rest, io);
      case undefined:
      case "help":
      case "--help":
      case "-h":
        io.out(HELP);
        return verb === undefined ? 2 : 0;
      default:
        throw new UsageError(`unknown command '${verb}'`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`loom: ${error.message}`);
      io.err(`Run 'loom help' for usage.`);
      return 2;
    }
    throw error;
  }
}

/** LOOM_SERVER and where tokens come from, for the real process only (tests give their own io and pass --server). */
function farmServer(io: CliIo): FarmAccess {
  if (io !== processIo) return { credentials: { cwd: io.cwd, configDir: null } };
  const env = serverEnv();
  return {
    ...(env.LOOM_SERVER ? { server: env.LOOM_SERVER } : {}),
    credentials: { cwd: io.cwd, configDir: configDirFrom(env), ...(env.LOOM_TOKEN ? { token: env.LOOM_TOKEN } : {}), ...(env.LOOM_TOKEN_FILE ? { tokenFile: env.LOOM_TOKEN_FILE } : {}) },
  };
}

/**
 * The first SIGINT/SIGTERM aborts (the Session cancels its running action and exits its
 * environments); a second one exits at once. Only installed for the real process.
 */
async function withInterrupts(io: CliIo, run: (signal: AbortSignal | null) => Promise<number>): Promise<number> {
  if (io !== processIo) return run(null);
  const controller = new AbortController();
  const removeHandlers = onStopSignals((name, count) => {
    if (count > 1) {
      io.err(`loom: ${name} again, quitting without cleanup`);
      process.exit(130);
    }
    io.err(`loom: ${name} received, canceling the Session (send it again to quit at once)`);
    controller.abort();
  });
  try {
    return await run(controller.signal);
  } finally {
    removeHandlers();
  }
}

/** `serve`: the first signal asks for a clean stop, a second one forces it (and exits if that hangs). */
async function withStopSignals(io: CliIo, run: (stop: AbortSignal | null, force: AbortSignal | null) => Promise<number>): Promise<number> {
  if (io !== processIo) return run(null, null);
  const stop = new AbortController();
  const force = new AbortController();
  const removeHandlers = onStopSignals((_name, count) => {
    if (count === 1) return stop.abort();
    force.abort();
    setTimeout(() => process.exit(130), 5_000).unref();
  });
  try {
    return await run(stop.signal, force.signal);
  } finally {
    removeHandlers();
  }
}

/**
 * The `loom` command: dispatches verbs; usage errors exit 2, failures 1, success 0. Each verb's
 * module is loaded when it is used: `serve` brings in Next.js, which would cost every
 * `loom job get` seconds of start-up.
 */
import { UsageError } from "./args";
import { processIo, type CliIo } from "./io";
import { serverEnv } from "../env";
import { onStopSignals } from "./stop-signals";
import { configDirFrom } from "./credentials";
import type { FarmAccess } from "./farm-client";
import { PromptCanceled, PromptRefused } from "./prompt";

async function help(): Promise<string> {
  const [check, summary, run, serve, login, submit, job, worker, user, conformance] = await Promise.all([
    import("./check"),
    import("./summary"),
    import("./run"),
    import("./serve"),
    import("./login"),
    import("./submit"),
    import("./job"),
    import("./worker"),
    import("./user"),
    import("./conformance"),
  ]);
  const usage = (text: string) => text.replace("usage: ", "");
  return `loom — the Loom OpenJD farm command

  ${usage(check.CHECK_USAGE)}
      validate a job or environment template
  ${usage(summary.SUMMARY_USAGE)}
      show the job a template creates: steps, dependencies, tasks, environments
  ${usage(run.RUN_USAGE)}
      run a job's tasks in one local Session and print its log
  ${usage(serve.SERVE_USAGE)}
      the farm: server, scheduler and local workers (what npm start runs)
  ${usage(login.LOGIN_USAGE)}
      sign in to a Loom server: keeps a personal access token for the verbs below
  ${usage(login.LOGOUT_USAGE)}
      revoke and forget that token
  ${usage(submit.SUBMIT_USAGE)}
      submit a job (template or bundle) to a Loom server; prints its id
  ${usage(job.JOB_USAGE)}
      a job on a Loom server: show, wait for it, its logs, wrangler actions
  ${usage(worker.WORKER_USAGE)}
      a worker agent: runs Sessions for a farm server
  ${usage(user.USER_USAGE)}
      accounts, on the server's own shell (straight on its data folder)
  ${usage(conformance.CONFORMANCE_USAGE)}
      run OpenJD conformance cases (job_templates/, env_templates/, jobs/)

Verbs that call a server send, as 'Authorization: Bearer', the first of: LOOM_TOKEN, the token
'loom login' kept for that server, the file LOOM_TOKEN_FILE names, and for a server on this
machine ./data/local-admin.token. The server is --server, else LOOM_SERVER, else
http://127.0.0.1:3000.

Exit codes: 0 success, 1 failure, 2 usage error (130: canceled at a prompt).`;
}

export async function main(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  const [verb, ...rest] = argv;
  try {
    switch (verb) {
      case "check":
        return (await import("./check")).runCheck(rest, io);
      case "summary":
        return (await import("./summary")).runSummary(rest, io);
      case "run": {
        const { runRun } = await import("./run");
        return await withInterrupts(io, (signal) => runRun(rest, io, signal));
      }
      case "submit":
        return await (await import("./submit")).runSubmit(rest, io, farmServer(io));
      case "job":
        return await (await import("./job")).runJob(rest, io, farmServer(io));
      case "login":
        return await (await import("./login")).runLogin(rest, io, farmServer(io));
      case "logout":
        return await (await import("./login")).runLogout(rest, io, farmServer(io));
      case "user":
        return await (await import("./user")).runUser(rest, io);
      case "worker":
        return await (await import("./worker")).runWorker(rest, io);
      case "serve": {
        const { runServe } = await import("./serve");
        return await withStopSignals(io, (stop, force) => runServe(rest, io, stop, force));
      }
      case "serve-web": {
        // Internal: the portal's server process that `loom serve` starts.
        const { runServeWeb } = await import("./headless");
        return await withStopSignals(io, (stop) => runServeWeb(rest, io, stop));
      }
      case "conformance":
        return await (await import("./conformance")).runConformance(rest, io);
      case undefined:
      case "help":
      case "--help":
      case "-h":
        io.out(await help());
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
    if (error instanceof PromptRefused) {
      io.err(`loom: ${error.message}`);
      return 1;
    }
    if (error instanceof PromptCanceled) {
      io.err("loom: canceled; nothing was changed");
      return 130;
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

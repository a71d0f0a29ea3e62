/**
 * `loom worker`: a worker agent for a Loom server. It runs until the server stops it or it is
 * signalled: the first SIGINT/SIGTERM drains (the running action finishes, the server sends the
 * environment exits), a second one stops at once. One line per notable event on stdout. Several
 * --server flags name replicas of one farm: the worker uses the first that answers and moves to
 * the next when it stops answering (worker-client.ts).
 *
 * Tasks never see a credential: their environment is the worker's without any (task-environment.ts),
 * and with the task shield (--shield, task-shield.ts) the token file, the --hide paths and the
 * `loom login` folder are masked from them.
 */
import { mkdirSync, realpathSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { hostname } from "node:os";
import { resolve } from "node:path";
import { WorkerAgent, type AgentNotice, type AgentStopReason } from "../worker/agent";
import { startReaper } from "../worker/reaper";
import { hostFacts, workerCapabilities } from "../worker/capabilities";
import { configDirFrom } from "./credentials";
import { processEnvironment, serverEnv } from "../env";
import { defaultSessionRoot } from "../session/working-directory";
import { chooseShield, SHIELD_MODES, type ShieldMode } from "../worker/shield-mode";
import { parseArgs, UsageError } from "./args";
import { processIo, type CliIo } from "./io";
import { watchParent } from "../parent-watch";
import { onStopSignals } from "./stop-signals";

export const WORKER_USAGE =
  "usage: loom worker --server URL [--server URL]… (--token T | --token-file PATH) [--pool P] [--name N] [--attr K=V]… [--amount K=N]… [--session-root DIR] [--hide PATH]… [--shield auto|on|off]";

/** Settings from the environment (server/env.ts is the only reader of process.env). */
export interface WorkerEnvironment {
  /** LOOM_WORKER_TOKEN: used when neither --token nor --token-file is given. */
  token?: string;
  /** LOOM_SERVER: used when --server is not given. */
  server?: string;
  /** Hidden from tasks too: the `loom login` folder, and the file LOOM_TOKEN_FILE names. */
  configDir?: string | null;
  tokenFile?: string;
  /** Where the task shield looks for unshare, mount and env (the worker's PATH). */
  searchPath?: string;
  /** LOOM_WORKER_INSTANCE_ID: the agent's instance id, when `loom serve` chose it (else a random one). */
  instanceId?: string;
}

const EXIT: Record<AgentStopReason, number> = { drained: 0, refused: 1, stopped: 130 };

/**
 * Aborting `signal` drains the worker; the real process also drains on its first SIGINT/SIGTERM
 * and stops on the second. Without `environment`, the real process reads LOOM_WORKER_TOKEN and
 * LOOM_SERVER through server/env.ts; tests pass their own.
 */
export async function runWorker(argv: readonly string[], io: CliIo, signal?: AbortSignal, environment?: WorkerEnvironment): Promise<number> {
  const args = parseArgs(argv, {
    values: ["--token", "--token-file", "--pool", "--name", "--session-root", "--shield"],
    repeated: ["--server", "--attr", "--amount", "--hide"],
    booleans: ["--server-on-stdin"],
  });
  if (args.positionals.length > 0) throw new UsageError(`unexpected argument '${args.positionals[0]}'\n${WORKER_USAGE}`);
  const env = environment ?? (io === processIo ? fromServerEnv() : {});
  // Internal, for `loom serve`'s local agents: they load while the server starts and get its address once it answers.
  const serverOnStdin = args.booleans.has("--server-on-stdin");
  let servers = serverOnStdin ? [] : checkServerUrls(args.repeated.get("--server") ?? (env.server !== undefined ? [env.server] : []));
  const token = await readToken(args.values, io, env);
  const capabilities = workerCapabilities({ attrs: args.repeated.get("--attr") ?? [], amounts: args.repeated.get("--amount") ?? [] }, hostFacts());
  if (!capabilities.ok) throw new UsageError(capabilities.errors.join("\nloom: "));
  const name = args.values.get("--name") ?? hostname();
  if (name.length < 1 || name.length > 128) throw new UsageError("--name must be 1 to 128 characters");
  const shieldMode = args.values.get("--shield") ?? "auto";
  if (!(SHIELD_MODES as readonly string[]).includes(shieldMode)) throw new UsageError(`--shield takes auto, on or off, not '${shieldMode}'`);
  const sessionRoot = prepareSessionRoot(resolve(io.cwd, args.values.get("--session-root") ?? defaultSessionRoot()));
  const tokenFile = args.values.get("--token-file");
  const hidden = hiddenPaths([...(tokenFile !== undefined ? [tokenFile] : []), ...(args.repeated.get("--hide") ?? [])], io, env);
  // The token decides the pool on the server (the protocol has no pool field): --pool only labels the output.
  const pool = args.values.get("--pool");

  const choice = await chooseShield(shieldMode as ShieldMode, { hidden, sessionRoot, ...(env.searchPath ? { searchPath: env.searchPath } : {}) });
  if ("refused" in choice) {
    io.err(`loom worker: ${choice.refused}`);
    return 1;
  }
  if (choice.warning) io.err(`loom worker: ${choice.warning}`);
  if (serverOnStdin) {
    const line = await firstLine(io.stdin);
    if (!line) return 1; // `loom serve` stopped before its server answered
    servers = checkServerUrls([line]);
  }
  const serverUrl = servers[0] as string;
  const agent = new WorkerAgent({
    serverUrl: servers,
    token,
    // A refused credential sends the agent back to enrollment: the admin may have put a rotated token in the file.
    ...(tokenFile !== undefined ? { readToken: () => readFile(resolve(io.cwd, tokenFile), "utf8") } : {}),
    name,
    ...(env.instanceId ? { instanceId: env.instanceId } : {}),
    capabilities: capabilities.capabilities,
    rootDirectory: sessionRoot,
    ...(choice.shield ? { launcher: choice.shield.launcher } : {}),
    onNotice: (notice) => print(io, notice, { serverUrl, pool }),
  });
  const onAbort = () => agent.drain();
  signal?.addEventListener("abort", onAbort, { once: true });
  if (signal?.aborted) agent.drain();
  const detach = io === processIo ? attachToProcess(io, agent) : () => undefined;
  try {
    return EXIT[await agent.start()];
  } finally {
    signal?.removeEventListener("abort", onAbort);
    detach();
  }
}

/** The Session root, made if missing, as a real path (the shield compares paths with it). */
function prepareSessionRoot(path: string): string {
  try {
    mkdirSync(path, { recursive: true, mode: 0o755 });
    return realpathSync(path);
  } catch (error) {
    throw new UsageError(`--session-root: cannot use ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** What tasks must not read: the token file, the --hide paths, the `loom login` folder, LOOM_TOKEN_FILE's file. */
function hiddenPaths(given: readonly string[], io: CliIo, env: WorkerEnvironment): string[] {
  const paths = given.map((path) => resolve(io.cwd, path));
  if (env.configDir) paths.push(env.configDir);
  if (env.tokenFile) paths.push(resolve(io.cwd, env.tokenFile));
  return paths;
}

/** What only the real worker process does; returns the function that undoes it. */
function attachToProcess(io: CliIo, agent: WorkerAgent): () => void {
  // The first signal drains, a second one (the agent's second drain) stops at once.
  const removeHandlers = onStopSignals((name, count) => {
    io.err(count === 1 ? `loom worker: ${name} received, draining (send it again to stop at once)` : `loom worker: ${name} again, stopping now`);
    agent.drain();
  });
  // A task must not outlive this process, however it dies (reaper.ts).
  const stopReaper = startReaper();
  // Started by `loom serve`: when it is gone, so is the server this worker reports to; stop now.
  const parentPid = serverEnv().LOOM_PARENT_PID;
  const unwatch = parentPid
    ? watchParent(parentPid, () => {
        io.err("loom worker: loom serve is gone, stopping now");
        void agent.stop();
      })
    : () => undefined;
  return () => {
    removeHandlers();
    unwatch();
    stopReaper();
  };
}

function fromServerEnv(): WorkerEnvironment {
  const env = serverEnv();
  const searchPath = processEnvironment().PATH;
  return {
    ...(env.LOOM_WORKER_TOKEN ? { token: env.LOOM_WORKER_TOKEN } : {}),
    ...(env.LOOM_SERVER ? { server: env.LOOM_SERVER } : {}),
    configDir: configDirFrom(env),
    ...(env.LOOM_TOKEN_FILE ? { tokenFile: env.LOOM_TOKEN_FILE } : {}),
    ...(searchPath ? { searchPath } : {}),
    ...(env.LOOM_WORKER_INSTANCE_ID ? { instanceId: env.LOOM_WORKER_INSTANCE_ID } : {}),
  };
}

/** The first line of `input`, or null when it ends before one. */
function firstLine(input: CliIo["stdin"]): Promise<string | null> {
  if (!input) return Promise.resolve(null);
  return new Promise((resolveLine) => {
    let text = "";
    const done = (line: string | null) => {
      input.off("data", onData);
      input.off("end", onEnd);
      input.resume(); // read on to its end, so it does not keep this process alive
      resolveLine(line);
    };
    const onData = (chunk: Buffer | string) => {
      text += chunk.toString();
      const end = text.indexOf("\n");
      if (end >= 0) done(text.slice(0, end).trim());
    };
    const onEnd = () => done(null);
    input.on("data", onData);
    input.on("end", onEnd);
  });
}

/** Every --server checked, in the order given, each once. */
function checkServerUrls(values: readonly string[]): string[] {
  if (values.length === 0) throw new UsageError(`--server (or LOOM_SERVER) is required\n${WORKER_USAGE}`);
  return [...new Set(values.map(checkServerUrl))];
}

function checkServerUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--server: '${value}' is not a URL (for example http://farm.example:3000)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UsageError(`--server: use an http:// or https:// URL, not ${url.protocol}`);
  return url.toString();
}

async function readToken(values: Map<string, string>, io: CliIo, environment: WorkerEnvironment): Promise<string> {
  const given = values.get("--token");
  const file = values.get("--token-file");
  if (given !== undefined && file !== undefined) throw new UsageError("give --token or --token-file, not both");
  let token = given ?? environment.token;
  if (file !== undefined) {
    try {
      token = await readFile(resolve(io.cwd, file), "utf8");
    } catch (error) {
      throw new UsageError(`--token-file: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
    }
  }
  token = token?.trim();
  if (!token) throw new UsageError(`a worker token is required: --token, --token-file or LOOM_WORKER_TOKEN\n${WORKER_USAGE}`);
  return token;
}

function print(io: CliIo, notice: AgentNotice, context: { serverUrl: string; pool: string | undefined }): void {
  const line = describeNotice(notice, context);
  if (line === null) return;
  if (notice.type === "server_unavailable" || notice.type === "server_moved" || (notice.type === "stopped" && notice.reason === "refused")) io.err(`loom worker: ${line}`);
  else io.out(line);
}

/** One line per notable event; null for those not worth a line. */
export function describeNotice(notice: AgentNotice, context: { serverUrl: string; pool?: string | undefined }): string | null {
  switch (notice.type) {
    case "registered":
      return `registered with ${notice.server ?? context.serverUrl}${context.pool ? ` (pool ${context.pool})` : ""} as worker ${notice.workerId}, lease ${notice.leaseEpoch}`;
    case "session_started":
      return `session ${notice.sessionId} started: job '${notice.jobName}' in ${notice.workingDirectory}`;
    case "session_ended":
      return `session ${notice.sessionId} ended: ${notice.status}`;
    case "action_ended": {
      const { action } = notice;
      const what =
        action.kind === "TASK_RUN"
          ? `${action.stepName ?? "?"}${
              Object.keys(action.parameters ?? {}).length > 0
                ? ` ${Object.entries(action.parameters ?? {})
                    .map(([k, v]) => `${k}=${v.value}`)
                    .join(" ")}`
                : ""
            }`
          : (action.environmentId ?? "?");
      return `action ${action.actionId} ${action.kind} ${what}: ${notice.status}${notice.failMessage ? ` (${notice.failMessage})` : ""}`;
    }
    case "server_unavailable":
      return `${notice.refused ? "the server refused a request" : "server unavailable"}: ${notice.message}; retrying (next in ${Math.round(notice.retryInMs / 100) / 10}s)`;
    case "server_available":
      return "server reachable again";
    case "server_moved":
      return `server ${notice.from} stopped answering (${notice.reason}); now using ${notice.to}`;
    case "lease_conflict":
      return `the server fenced this worker off (${notice.message}): everything running was stopped; registering again`;
    case "credential_refused":
      return `the server no longer takes this worker's credential (${notice.message}): everything running was stopped; enrolling again`;
    case "draining":
      return notice.by === "server" ? "the server asked this worker to stop: draining" : "draining: no new work, finishing the running action";
    case "stopped":
      return notice.reason === "refused" ? `the server refused this worker: ${notice.message ?? "no reason given"}` : `stopped (${notice.reason})`;
  }
}

/**
 * Support for the farm's integration and fault tests: a real farm server in-process (temp-file
 * SQLite, the plain Node HTTP server, the scheduler loop), real `loom worker` / `loom serve`
 * child processes (workers get their pool's token in a file, as an operator gives it), a tRPC
 * client as the portal and the CLI use it (with an admin's personal access token), and the
 * cleanup that keeps a failed test from leaving anything behind.
 *
 * Every child is spawned as the leader of its own process group, and carries a tag in its
 * environment (LOOM_FARM_TEST_TAG). Session actions inherit the worker's environment but run in
 * process groups of their own; should one outlive its worker (a test that kills the reaper too),
 * cleanup finds it by the tag in /proc/<pid>/environ and kills it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTRPCClient, httpBatchLink } from "@trpc/client";
import { TERMINAL_TASK_STATUSES } from "../../lib/farm/statuses";
import { apiHandler } from "../api/app-handler";
import { startNodeServer } from "../api/node-server";
import type { Store } from "../db/connection";
import { openAsyncStore } from "../store/engine/open-store";
import { testDatabaseTarget, testEngine } from "../store/engines-test-support";
import { createOwnToken } from "../auth/access-tokens";
import { LOCAL_ADMIN_TOKEN_FILE } from "../auth/first-start";
import { testPrincipal } from "../auth/test-principals";
import type { AppRouter } from "../router";
import { createFarm, type Farm, type FarmSettings } from "../context/farm";
import { FarmLoop } from "../services/farm-loop";
import { createPool } from "../services/pools";
import { SYSTEM_ACTOR } from "../services/audit";
import { testSupportRepository, type TaskRunRow } from "../store/store-test-support";

export const REPO = fileURLToPath(new URL("../../", import.meta.url));
export const LOOM_BIN = join(REPO, "bin", "loom.mjs");
const TAG = "LOOM_FARM_TEST_TAG";
/** Set on each worker child (and so on its actions): which worker ran a task. */
export const WORKER_TAG = "LOOM_FARM_TEST_WORKER";

export type FarmClient = ReturnType<typeof farmClient>;

/** A tRPC client sending `token` (a personal access token) as the CLI does. */
export function farmClient(url: string, token: string) {
  return createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: `${url}/api/trpc`, headers: { authorization: `Bearer ${token}` } })] });
}

/** A client of `loom serve` with the local admin's token it keeps in its data folder. */
export function localAdminClient(url: string, dataDir: string) {
  return farmClient(url, readFileSync(join(dataDir, LOCAL_ADMIN_TOKEN_FILE), "utf8").trim());
}

/** A personal access token of an admin of `farm` (made in-process, as the admin would on the tokens page). */
export async function adminToken(farm: Farm): Promise<string> {
  const admin = await testPrincipal(farm, "admin");
  return (await createOwnToken(farm, admin, SYSTEM_ACTOR, { name: "farm test", scope: "admin", expiresInDays: 1 })).token;
}

export async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `condition` (sync or async) until it returns a value other than false/undefined/null. */
export async function waitFor<T>(condition: () => T | Promise<T>, what: string, timeoutMs = 15_000, everyMs = 50): Promise<Exclude<T, false | null | undefined>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value !== false && value !== null && value !== undefined) return value as Exclude<T, false | null | undefined>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(everyMs);
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** Pids of live processes whose environment holds NAME=value (this process excluded). */
export function processesWithEnv(name: string, value: string): number[] {
  const wanted = `${name}=${value}`;
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, "latin1").split("\0").includes(wanted)) found.push(Number(entry));
    } catch {
      // gone, or not ours
    }
  }
  return found;
}

/** SIGKILLs every process (and its group) whose environment holds NAME=value; returns the pids found. */
function killProcessesWithEnv(name: string, value: string): number[] {
  const pids = processesWithEnv(name, value);
  for (const pid of pids) {
    for (const target of [-pid, pid]) {
      try {
        process.kill(target, "SIGKILL");
      } catch {
        // not a group leader, or already gone
      }
    }
  }
  return pids;
}

export interface Spawned {
  name: string;
  child: ChildProcess;
  /** stdout and stderr so far, interleaved. */
  output(): string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  alive(): boolean;
}

export interface InProcessFarm {
  farm: Farm;
  /** The farm's store (SQLite in a temp file, or a PostgreSQL database of the test's own). Tests read it through units (`store.read`): the server in this process may have one open on its connection. */
  store: Store;
  url: string;
  /** The enrollment token of the pool the test workers join. */
  token: string;
  /** An admin's personal access token (what `api` sends). */
  adminToken: string;
  api: FarmClient;
}

export interface SpawnedWorker extends Spawned {
  /** The file its pool token was given in. */
  tokenFile: string;
}

/** One per test: everything it starts, stopped and removed by dispose() (call it in afterEach). */
export class FarmHarness {
  readonly tag = `loom-farm-test-${randomBytes(6).toString("hex")}`;
  private readonly children: Spawned[] = [];
  private readonly dirs: string[] = [];
  private readonly stops: Array<() => Promise<void> | void> = [];

  tempDir(prefix = "loom-farm-test-"): string {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
    this.dirs.push(dir);
    return dir;
  }

  /** A farm server in this process: SQLite in a temp file, a pool "test", the sweep loop, HTTP on a free port. */
  async startFarm(settings: Partial<FarmSettings> = {}, options: { sweepMs?: number } = {}): Promise<InProcessFarm> {
    const store = await openAsyncStore(await testDatabaseTarget(this.tempDir("loom-farm-db-")));
    const farm = createFarm(store, { settings: { syncIntervalSeconds: 0.25, workerTimeoutSeconds: 3, ...settings } });
    const { token } = await createPool(farm, { name: "test" }, SYSTEM_ACTOR);
    const loop = new FarmLoop(farm, options.sweepMs ?? 250);
    loop.start();
    const server = await startNodeServer(apiHandler(farm));
    this.stops.push(async () => {
      await loop.stop();
      await server.close();
      await store.close();
    });
    const admin = await adminToken(farm);
    return { farm, store, url: server.url, token, adminToken: admin, api: farmClient(server.url, admin) };
  }

  /** `node bin/loom.mjs ARGS…` as a process-group leader, tagged. */
  spawnLoom(name: string, args: readonly string[], env: Record<string, string> = {}): Spawned {
    const child = spawn(process.execPath, [LOOM_BIN, ...args], {
      cwd: REPO,
      env: { ...process.env, [TAG]: this.tag, ...env },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    });
    let text = "";
    child.stdout?.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    child.stderr?.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
    const spawned: Spawned = { name, child, output: () => text, exited, alive: () => child.exitCode === null && child.signalCode === null };
    this.children.push(spawned);
    return spawned;
  }

  /**
   * The environment a spawned `loom serve` needs for the test's engine: on PostgreSQL the URL of
   * a database of this test's own (the same one every time, so a restart finds its data); on
   * SQLite nothing (the data folder holds the database).
   */
  async databaseEnv(): Promise<Record<string, string>> {
    if (testEngine() === "sqlite") return {};
    this.databaseUrl ??= await testDatabaseTarget();
    return { LOOM_DATABASE_URL: this.databaseUrl };
  }

  private databaseUrl: string | undefined;

  /**
   * `loom serve --headless` on `port` with its data in `dataDir` and no local workers; resolves
   * once it listens, and fails with its output if it exits first.
   */
  async serveLoom(dataDir: string, port: number, env: Record<string, string> = {}): Promise<Spawned> {
    const server = this.spawnLoom("serve", ["serve", "--headless", "--port", String(port), "--data", dataDir, "--workers", "0"], { ...(await this.databaseEnv()), ...env });
    await waitFor(() => server.output().includes(`Loom is serving at http://127.0.0.1:${port}`) || !server.alive(), "the server to listen");
    if (!server.alive()) throw new Error(`loom serve exited before listening:\n${server.output()}`);
    return server;
  }

  /** `loom worker` joining `url` with the pool `token` (given in a 0600 file, as an operator would). */
  startWorker(url: string, token: string, name: string, extraArgs: readonly string[] = []): SpawnedWorker {
    const root = this.tempDir(`loom-worker-${name}-`);
    const tokenFile = join(this.tempDir(`loom-worker-token-${name}-`), "pool.token");
    writeFileSync(tokenFile, `${token}\n`, { mode: 0o600 });
    const spawned = this.spawnLoom(name, ["worker", "--server", url, "--token-file", tokenFile, "--name", name, "--session-root", root, ...extraArgs], {
      [WORKER_TAG]: this.workerTag(name),
    });
    return { ...spawned, tokenFile };
  }

  workerTag(name: string): string {
    return `${this.tag}:${name}`;
  }

  /** Pids of the live processes this test started, directly or not (children, workers, their tasks). */
  liveProcesses(): number[] {
    return processesWithEnv(TAG, this.tag);
  }

  /** Runs `loom ARGS…` to its end (for submit / job wait); kills it after `timeoutMs`. */
  async runLoom(args: readonly string[], timeoutMs = 30_000, env: Record<string, string> = {}): Promise<{ code: number | null; output: string }> {
    const run = this.spawnLoom(`loom ${args[0] ?? ""}`, args, env);
    const timer = setTimeout(() => killGroup(run.child), timeoutMs);
    const { code } = await run.exited;
    clearTimeout(timer);
    return { code, output: run.output() };
  }

  /** Kills every child (whole groups), every orphan carrying the tag, stops servers, removes temp dirs. */
  async dispose(): Promise<void> {
    for (const spawned of this.children) if (spawned.alive()) killGroup(spawned.child);
    killProcessesWithEnv(TAG, this.tag);
    await Promise.all(this.children.map((c) => Promise.race([c.exited, sleep(5_000)])));
    // Orphans that were forking while we looked.
    killProcessesWithEnv(TAG, this.tag);
    for (const stop of this.stops.splice(0).reverse()) await stop();
    for (const dir of this.dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  }
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals = "SIGKILL"): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // gone
    }
  }
}

/** Submits a job template (as JSON text) through the tRPC API; returns its id or throws with the errors. */
export async function submitTemplate(
  api: FarmClient,
  template: object,
  parameterValues: Record<string, string> = {},
  settings: { maxRetriesPerTask?: number } = { maxRetriesPerTask: 0 },
): Promise<string> {
  const result = await api.jobs.submit.mutate({ template: { text: JSON.stringify(template), format: "json" }, parameterValues, workingDir: tmpdir(), settings });
  if (!result.ok) throw new Error(`submission failed: ${result.errors.map((e) => `${e.path}: ${e.message}`).join("; ")}`);
  return result.jobId;
}

/** Waits until the job has ended (no task assigned or running); returns its detail. */
export async function waitForJobEnd(api: FarmClient, jobId: string, timeoutMs = 20_000) {
  return waitFor(
    async () => {
      const job = await api.jobs.get.query({ jobId });
      return TERMINAL_TASK_STATUSES.has(job.status) && job.counts.ASSIGNED + job.counts.RUNNING === 0 ? job : null;
    },
    `job ${jobId} to end`,
    timeoutMs,
    100,
  );
}

/** Waits until the job's one Session has ended; returns it. */
export async function waitForSessionEnd(api: FarmClient, jobId: string) {
  return waitFor(async () => {
    const sessions = await api.jobs.sessions.query({ jobId });
    return sessions.length === 1 && sessions[0]!.state === "ENDED" ? sessions[0] : null;
  }, "the Session to end");
}

/** Waits until `count` workers have registered in the in-process farm. */
export async function waitForWorkers(api: FarmClient, count: number, timeoutMs = 15_000) {
  return waitFor(
    async () => {
      const workers = await api.workers.list.query({});
      return workers.length >= count ? workers : null;
    },
    `${count} worker(s) to register`,
    timeoutMs,
    100,
  );
}

/** The non-empty lines of a file the tasks write; none while it does not exist. */
export function fileLines(file: string): string[] {
  return existsSync(file)
    ? readFileSync(file, "utf8")
        .split("\n")
        .filter((l) => l !== "")
    : [];
}

/** An action as the OpenJD template's `{ command, args }` running an inline Python script. */
export function python(code: string, ...args: string[]): { command: string; args: string[] } {
  return { command: "python3", args: ["-c", code, ...args] };
}

/** An inline /bin/sh script; its positional parameters $1… are `args`. */
export function shell(script: string, ...args: string[]): { command: string; args: string[] } {
  return { command: "/bin/sh", args: ["-c", script, "sh", ...args] };
}

export type { TaskRunRow };

/** Every TASK_RUN action the farm recorded for a job, in the order they were issued. */
export async function taskRuns(farm: Farm, jobId: string): Promise<TaskRunRow[]> {
  return farm.store.read((tx) => testSupportRepository.taskRuns(tx, jobId));
}

/** Tasks with more than one SUCCEEDED TASK_RUN action: completions the farm recorded twice. */
export async function doubleCompletions(farm: Farm, jobId: string): Promise<Array<{ taskId: number; n: number }>> {
  return farm.store.read((tx) => testSupportRepository.doubleCompletions(tx, jobId));
}

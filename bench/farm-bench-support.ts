/**
 * What the farm benchmarks (bench/dispatch.ts, bench/load.ts) share: a farm on a temp-file
 * SQLite database (or on a PostgreSQL database, with replicas: postgres-bench-support.ts), optionally
 * behind the real Node HTTP server; no-op jobs submitted through the
 * service; the worker protocol either over HTTP (the agent's WorkerClient over keep-alive
 * connections: enrolling with the pool's token, then each simulated worker with its own
 * credential) or straight into the services; an admin's personal access token for tRPC calls; a worker thread for the simulated clients; latency
 * percentiles (overall and per window of the run); and the checks and errors that fail a run loudly.
 */
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import type { LogsRequest, LogsResponse, RegisterRequest, RegisterResponse, SyncRequest, SyncResponse } from "../lib/farm/protocol";
import { createOwnToken } from "../server/auth/access-tokens";
import { testPrincipal } from "../server/auth/test-principals";
import { apiHandler } from "../server/api/app-handler";
import { startNodeServer, type RunningServer } from "../server/api/node-server";
import { openStore } from "../server/db/connection";
import { refreshCompatibility } from "../server/services/compatibility";
import { createFarm, type Farm, type FarmSettings } from "../server/context/farm";
import { FarmLoop } from "../server/services/farm-loop";
import { startReplication, type Replication } from "../server/services/replication";
import type { AsyncStore } from "../server/store/engine/engine";
import { authenticateWorker, type WorkerIdentity } from "../server/services/authenticate-worker";
import { ingestLogs } from "../server/services/ingest-logs";
import { authenticatePool, createPool, type PoolRow } from "../server/services/pools";
import { registerWorker } from "../server/services/register-worker";
import { submitJob } from "../server/services/submit-job";
import { syncWorker } from "../server/services/sync-worker";
import { WorkerClient } from "../server/worker/worker-client";
import { SYSTEM_ACTOR } from "../server/services/audit";

/** A temp folder removed by `remove()` (call it in `finally`). */
export function tempFolder(prefix: string): { path: string; remove(): void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/**
 * Runs a TypeScript module in a worker thread (tsx registered there first) and resolves with the
 * first message it posts. The simulated workers run there, on the second core, so the server's
 * event loop carries only the server, as it would with workers on other machines.
 */
export function runInThread<T>(moduleUrl: string, workerData: unknown): Promise<T> {
  const tsx = import.meta.resolve("tsx/esm/api");
  const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(moduleUrl)}); })`;
  const worker = new Worker(boot, { eval: true, workerData });
  return new Promise<T>((resolve, reject) => {
    worker.once("message", (message: T) => {
      resolve(message);
      void worker.terminate();
    });
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the client thread exited (${code}) before reporting`)));
  });
}

export interface BenchFarm {
  farm: Farm;
  pool: PoolRow;
  /** The pool's enrollment token. */
  token: string;
  /** An admin's personal access token, for tRPC queries and subscriptions. */
  adminToken: string;
  /** The SQLite file, or the PostgreSQL database's URL. */
  file: string;
  /** Set by `serve()`. */
  server: RunningServer | null;
  /** Starts the real HTTP server (and the scheduler's sweep loop, as `loom serve` runs it). */
  serve(): Promise<string>;
  close(): Promise<void>;
}

/** The pool and tokens the simulated workers and admin clients use; replicas of one database share them. */
export type BenchIdentity = Pick<BenchFarm, "pool" | "token" | "adminToken">;

export async function openBenchFarm(file: string, settings: Partial<FarmSettings> = {}): Promise<BenchFarm> {
  const store = openStore(file);
  const farm = createFarm(store, { settings });
  return benchFarmOn(store, farm, file, await benchIdentity(farm), undefined);
}

export async function benchIdentity(farm: Farm): Promise<BenchIdentity> {
  const { token } = await createPool(farm, { name: "bench" }, SYSTEM_ACTOR);
  const pool = await authenticatePool(farm, token);
  if (!pool) throw new Error("the bench pool's token does not authenticate");
  const admin = await testPrincipal(farm, "admin", "bench-admin");
  const { token: adminToken } = await createOwnToken(farm, admin, SYSTEM_ACTOR, { name: "bench", scope: "admin", expiresInDays: 1 });
  return { pool, token, adminToken };
}

/** `databaseUrl`: the PostgreSQL database replicas share (undefined on SQLite: one server, nothing to replicate). */
export function benchFarmOn(store: AsyncStore, farm: Farm, file: string, identity: BenchIdentity, databaseUrl: string | undefined): BenchFarm {
  let loop: FarmLoop | null = null;
  let replication: Replication | null = null;
  const bench: BenchFarm = {
    farm,
    ...identity,
    file,
    server: null,
    async serve() {
      bench.server = await startNodeServer(apiHandler(farm));
      if (databaseUrl !== undefined) replication = await startReplication(farm, databaseUrl, { log: () => undefined });
      loop = new FarmLoop(farm, undefined, replication?.leadership);
      loop.start();
      return bench.server.url;
    },
    async close() {
      await loop?.stop();
      await bench.server?.close();
      await replication?.stop();
      await store.close();
    },
  };
  return bench;
}

/**
 * A job of `frames` × `tiles` tasks (OpenJD allows 1,024 values per parameter; the product makes
 * bigger jobs). The onRun command is never started: simulated workers decide the outcome.
 */
function noopTemplate(name: string, frames: number, tiles = 1): string {
  const tile = tiles > 1 ? `\n    - name: Tile\n      type: INT\n      range: "1-${tiles}"` : "";
  return `specificationVersion: jobtemplate-2023-09
name: ${name}
steps:
- name: Render
  parameterSpace:
    taskParameterDefinitions:
    - name: Frame
      type: INT
      range: "1-${frames}"${tile}
  script:
    actions:
      onRun:
        command: "true"
        args: ["{{Task.Param.Frame}}"]
`;
}

/** The identity of a task as a worker sees it: its job and parameter values. */
export function taskKey(jobId: string, parameters: Record<string, { value: string }> | undefined): string {
  return `${jobId}/${Object.values(parameters ?? {})
    .map((p) => p.value)
    .join(",")}`;
}

export async function submitJobs(farm: Farm, count: number, frames: number, tiles = 1, settings: { priority?: number } = {}): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const result = await submitJob(farm.store, {
      template: { text: noopTemplate(`bench-${i + 1}`, frames, tiles), format: "yaml" },
      parameterValues: {},
      templateDir: null,
      workingDir: tmpdir(),
      settings,
      now: farm.now(),
    });
    if (!result.ok) throw new Error(`submission failed: ${JSON.stringify(result.errors)}`);
    ids.push(result.jobId);
  }
  await refreshCompatibility(farm);
  return ids;
}

/** What a simulated worker registers with, as the agent does (one instance id per agent process). */
export function benchRegistration(name: string): RegisterRequest {
  return {
    name,
    instanceId: randomUUID(),
    capabilities: {
      amounts: { "amount.worker.vcpu": 4, "amount.worker.memory": 8192 },
      attributes: { "attr.worker.os.family": ["linux"], "attr.worker.cpu.arch": ["x86_64"] },
    },
  };
}

type Endpoint = "register" | "sync" | "logs";

/** The worker protocol, however it travels, timing every call per endpoint; `credential`: the one register answered with. */
export interface Transport {
  kind: "http" | "direct";
  latency: Record<Endpoint, Latencies>;
  register(request: RegisterRequest): Promise<RegisterResponse>;
  sync(credential: string, request: SyncRequest): Promise<SyncResponse>;
  logs(credential: string, request: LogsRequest): Promise<LogsResponse>;
}

export function endpointLatencies(): Record<Endpoint, Latencies> {
  return { register: new Latencies(), sync: new Latencies(), logs: new Latencies() };
}

/**
 * `fetch` over a keep-alive node:http Agent, for the simulated workers. Global fetch (undici)
 * costs about twice the CPU per request, and shared by hundreds of simulated workers it serves
 * them unfairly (some wait seconds while others cycle): artefacts of the load generator, not of
 * the server, which a real worker (one agent, one connection) never sees. Enough of fetch for
 * WorkerClient: method, headers, string body, status and text; no abort.
 */
function keepAliveFetch(): typeof fetch {
  const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
  return ((input: string | URL, init: RequestInit = {}) =>
    new Promise<Response>((resolve, reject) => {
      const req = request(input, { method: init.method ?? "GET", headers: init.headers as Record<string, string>, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 500 })));
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end(init.body as string | undefined);
    })) as typeof fetch;
}

/**
 * The real path: the worker agent's own HTTP client (WorkerClient: JSON, bearer token, error
 * classification) over keep-alive HTTP to the server — through `keepAliveFetch` unless
 * `useGlobalFetch`. Latency is what the caller waits, from the request to the parsed answer.
 */
export function httpTransport(url: string, token: string, useGlobalFetch = false): Transport {
  const client = new WorkerClient({ serverUrl: url, token, fetch: useGlobalFetch ? fetch : keepAliveFetch() });
  const latency = endpointLatencies();
  return {
    kind: "http",
    latency,
    register: (r) => timed(latency.register, () => client.register(r)),
    sync: (credential, r) => timed(latency.sync, () => client.sync(credential, r)),
    logs: (credential, r) => timed(latency.logs, () => client.logs(credential, r)),
  };
}

/**
 * The services without HTTP, JSON, validation or authentication (each worker's credential is
 * looked up once, when it registers): what the farm's own work costs. Each sync is a unit of
 * work of its own (no group commit: that is the HTTP path's). Calls run one at a time, as they
 * did when the services were synchronous, and each is timed from its turn: timed alongside the
 * others, its wait for the connection would add every other worker's turn.
 */
export function directTransport(bench: BenchFarm): Transport {
  const { farm, pool } = bench;
  const latency = endpointLatencies();
  const identities = new Map<string, WorkerIdentity>();
  const identity = (credential: string): WorkerIdentity => {
    const found = identities.get(credential);
    if (!found) throw new Error("a credential no registration answered with");
    return found;
  };
  let turn: Promise<unknown> = Promise.resolve();
  const call = <T>(into: Latencies, work: () => Promise<T>): Promise<T> => {
    const run = turn.then(() => timed(into, work));
    turn = run.catch(() => undefined);
    return run;
  };
  return {
    kind: "direct",
    latency,
    register: (r) =>
      call(latency.register, async () => {
        const registered = await registerWorker(farm, pool, r);
        identities.set(registered.credential, await authenticateWorker(farm, registered.credential));
        return registered;
      }),
    sync: (credential, r) => call(latency.sync, () => farm.store.transaction((tx) => syncWorker(farm, tx, identity(credential), r))),
    logs: (credential, r) => call(latency.logs, () => ingestLogs(farm, identity(credential), r)),
  };
}

/** Latency samples in milliseconds. */
export class Latencies {
  private readonly samples: number[] = [];
  private sorted = true;

  add(ms: number): void {
    this.samples.push(ms);
    this.sorted = false;
  }

  get count(): number {
    return this.samples.length;
  }

  /** The q-quantile (0–1), nearest rank; 0 without samples. */
  quantile(q: number): number {
    if (this.samples.length === 0) return 0;
    if (!this.sorted) {
      this.samples.sort((a, b) => a - b);
      this.sorted = true;
    }
    const rank = Math.min(this.samples.length - 1, Math.max(0, Math.ceil(q * this.samples.length) - 1));
    return this.samples[rank]!;
  }

  summary(): { count: number; p50Ms: number; p99Ms: number; maxMs: number } {
    return { count: this.count, p50Ms: round(this.quantile(0.5)), p99Ms: round(this.quantile(0.99)), maxMs: round(this.quantile(1)) };
  }
}

/** Sync latency per 10 s of a run, to show whether the server keeps up or degrades as data grows. */
export class LatencyWindows {
  private readonly windows: Latencies[] = [];

  constructor(private readonly startedAt: number) {}

  add(at: number, ms: number): void {
    const index = Math.max(0, Math.floor((at - this.startedAt) / 10_000));
    (this.windows[index] ??= new Latencies()).add(ms);
  }

  summary(): Array<{ fromS: number; syncs: number; p50Ms: number; p99Ms: number }> {
    return this.windows.map((w, i) => {
      const { count, p50Ms, p99Ms } = w.summary();
      return { fromS: i * 10, syncs: count, p50Ms, p99Ms };
    });
  }
}

/** Times `work` into `latencies`. */
export async function timed<T>(latencies: Latencies, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    latencies.add(performance.now() - started);
  }
}

export function round(value: number, digits = 2): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Errors of a whole run: counted, the first few kept for the report. */
export class RunErrors {
  count = 0;
  readonly first: string[] = [];

  /** `message`, followed by what `cause` says when there is one. */
  add(message: string, cause?: unknown): void {
    this.count++;
    if (this.first.length >= 20) return;
    this.first.push(cause === undefined ? message : `${message}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/** Task status counts over the whole farm (`{ SUCCEEDED: 20000 }`). */
export async function taskStatusCounts(farm: Farm): Promise<Record<string, number>> {
  const rows = await farm.store.read((tx) => tx.all<{ status: string; n: number }>("SELECT status, COUNT(*) AS n FROM tasks GROUP BY status"));
  return Object.fromEntries(rows.map((r) => [r.status, r.n]));
}

/**
 * Every task SUCCEEDED, by exactly one TASK_RUN action that SUCCEEDED (no task run twice), and
 * every job's counts and status agree. Returns the problems found (empty when all is well).
 */
export async function exactlyOnceProblems(farm: Farm, expectedTasks: number): Promise<string[]> {
  const problems: string[] = [];
  const counts = await taskStatusCounts(farm);
  if ((counts.SUCCEEDED ?? 0) !== expectedTasks || Object.keys(counts).length !== 1) problems.push(`task statuses ${JSON.stringify(counts)}, expected { SUCCEEDED: ${expectedTasks} }`);
  const { runs, jobs } = await farm.store.read(
    async (tx) => ({
      runs: await tx.all<{ task_id: number; runs: number; succeeded: number }>(
        // Both engines: no boolean SUM and no output alias in HAVING (PostgreSQL has neither).
        `SELECT t.id AS task_id, COUNT(a.id) AS runs, SUM(CASE WHEN a.status = 'SUCCEEDED' THEN 1 ELSE 0 END) AS succeeded
         FROM tasks t LEFT JOIN session_actions a ON a.task_id = t.id AND a.kind = 'TASK_RUN'
         GROUP BY t.id HAVING COUNT(a.id) != 1 OR SUM(CASE WHEN a.status = 'SUCCEEDED' THEN 1 ELSE 0 END) != 1`,
      ),
      jobs: await tx.all<{ id: string; status: string; succeeded: number; task_count: number }>("SELECT id, status, count_succeeded AS succeeded, task_count FROM jobs"),
    }),
    { consistent: true },
  );
  if (runs.length > 0) problems.push(`${runs.length} tasks not run exactly once, e.g. ${JSON.stringify(runs.slice(0, 5))}`);
  for (const { succeeded, ...job } of jobs) {
    if (job.status !== "SUCCEEDED" || succeeded !== job.task_count) problems.push(`job ${job.id}: status ${job.status}, SUCCEEDED ${succeeded} of ${job.task_count}`);
  }
  return problems;
}

/**
 * bench:ui's farm: `loom serve` (Next.js production build + scheduler) on its own port and data
 * folder with no local workers, the portal's tRPC calls over HTTP (with the local admin's token
 * `loom serve` writes in the data folder), one person signed in through the first-start setup
 * (the browser carries their session cookie: pages redirect anyone else to /login), and one
 * simulated worker that enrolls with the pool's token, holds a task and uploads its log lines
 * through the worker API, with its own credential, at a set rate.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { LOCAL_ADMIN_TOKEN_FILE } from "../server/auth/first-start";
import { SESSION_COOKIE } from "../server/auth/authenticate";
import { WorkerClient } from "../server/worker/worker-client";
import { benchRegistration, sleep } from "./farm-bench-support";

const REPO = resolve(import.meta.dirname, "..");

export interface ServedFarm {
  url: string;
  /** The pool's enrollment token. */
  token: string;
  /** The local admin's token, for the bench's own tRPC calls. */
  adminToken: string;
  /** The signed-in person's `loom_session` cookie value, for the browser. */
  sessionCookie: string;
  stop(): Promise<void>;
}

const BENCH_PERSON = { name: "bench-ui", password: "bench ui password, not a secret" };

/** Starts `loom serve --workers 0` (building the app into LOOM_NEXT_DIST_DIR first if its sources changed). */
export async function serveFarm(port: number, dataDir: string, distDir: string): Promise<ServedFarm> {
  const token = `loom_${randomBytes(24).toString("base64url")}`;
  const setupToken = `loom_setup_${randomBytes(24).toString("base64url")}`;
  const child: ChildProcess = spawn(process.execPath, [join(REPO, "bin", "loom.mjs"), "serve", "--port", String(port), "--data", dataDir, "--workers", "0"], {
    cwd: REPO,
    env: { ...process.env, LOOM_POOL_TOKEN: token, LOOM_SETUP_TOKEN: setupToken, LOOM_NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: "1" },
    stdio: ["ignore", "inherit", "inherit"],
    detached: true,
  });
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) child.kill("SIGINT");
    await Promise.race([exited, sleep(20_000).then(() => child.kill("SIGKILL"))]);
  };
  const deadline = Date.now() + 600_000; // a first build takes minutes on two cores
  for (;;) {
    if (child.exitCode !== null) throw new Error(`loom serve exited (${child.exitCode}) before it served`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error("loom serve did not answer within 10 minutes");
    }
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    await sleep(500);
  }
  try {
    const adminToken = readFileSync(join(dataDir, LOCAL_ADMIN_TOKEN_FILE), "utf8").trim();
    const sessionCookie = await setUp(url, setupToken);
    return { url, token, adminToken, sessionCookie, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Creates the first person (an admin) with the setup token; returns their session cookie. */
async function setUp(url: string, setupToken: string): Promise<string> {
  const response = await fetch(`${url}/api/trpc/auth.setup`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: setupToken, ...BENCH_PERSON }),
  });
  if (!response.ok) throw new Error(`auth.setup: HTTP ${response.status} ${await response.text()}`);
  const prefix = `${SESSION_COOKIE}=`;
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith(prefix));
  if (!cookie) throw new Error("auth.setup set no session cookie");
  return decodeURIComponent(cookie.slice(prefix.length).split(";")[0] ?? "");
}

/** A tRPC query or mutation over plain HTTP (the portal's wire format, no transformer) with a Bearer token. */
export async function trpc<T>(url: string, token: string, path: string, input: unknown, kind: "query" | "mutation"): Promise<T> {
  const authorization = `Bearer ${token}`;
  const response =
    kind === "query"
      ? await fetch(`${url}/api/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers: { authorization } })
      : await fetch(`${url}/api/trpc/${path}`, { method: "POST", headers: { "content-type": "application/json", authorization }, body: JSON.stringify(input) });
  const body = (await response.json()) as { result?: { data: T }; error?: unknown };
  if (!response.ok || !body.result) throw new Error(`${path}: HTTP ${response.status} ${JSON.stringify(body.error)}`);
  return body.result.data;
}

/** Submits a job template (YAML); returns its id. */
export async function submit(farm: ServedFarm, yaml: string, settings: Record<string, unknown> = {}): Promise<string> {
  const result = await trpc<{ ok: boolean; jobId?: string; errors?: unknown }>(farm.url, farm.adminToken, "jobs.submit", { template: { text: yaml, format: "yaml" }, settings }, "mutation");
  if (!result.ok || !result.jobId) throw new Error(`submission refused: ${JSON.stringify(result.errors)}`);
  return result.jobId;
}

/** `frames` × `tiles` tasks of a command that never runs here (no local workers). */
export function bigJob(name: string, frames: number, tiles: number): string {
  return `specificationVersion: jobtemplate-2023-09
name: ${name}
steps:
- name: Render
  parameterSpace:
    taskParameterDefinitions:
    - {name: Frame, type: INT, range: "1-${frames}"}
    - {name: Tile, type: INT, range: "1-${tiles}"}
  script:
    actions:
      onRun: {command: "true", args: ["{{Task.Param.Frame}}", "{{Task.Param.Tile}}"]}
- name: Composite
  dependencies: [{dependsOn: Render}]
  parameterSpace:
    taskParameterDefinitions:
    - {name: Frame, type: INT, range: "1-${frames}"}
  script:
    actions:
      onRun: {command: "true", args: ["{{Task.Param.Frame}}"]}
`;
}

/** A simulated worker holding one task of the farm's most urgent job, uploading lines for it. */
export class LogWorker {
  private readonly client: WorkerClient;
  private workerId = "";
  private leaseEpoch = 0;
  private credential = "";
  sessionId = "";
  actionId = "";
  private seq = 0;

  constructor(url: string, token: string) {
    this.client = new WorkerClient({ serverUrl: url, token });
  }

  /** Registers, takes its first assignment and reports the task running. */
  async start(): Promise<void> {
    const registered = await this.client.register(benchRegistration("bench-ui-logs"));
    this.workerId = registered.workerId;
    this.leaseEpoch = registered.leaseEpoch;
    this.credential = registered.credential;
    for (let i = 0; i < 20 && !this.actionId; i++) {
      const response = await this.client.sync(this.credential, { workerId: this.workerId, leaseEpoch: this.leaseEpoch, sessions: [], actions: [], updates: [] });
      const assignment = response.assignments[0];
      const task = assignment?.actions.find((a) => a.kind === "TASK_RUN");
      if (assignment && task) {
        this.sessionId = assignment.sessionId;
        this.actionId = task.actionId;
      } else await sleep(250);
    }
    if (!this.actionId) throw new Error("the simulated worker got no task");
    await this.heartbeat([{ actionId: this.actionId, status: "RUNNING", startedAt: Date.now() }]);
  }

  heartbeat(updates: Array<{ actionId: string; status: "RUNNING"; startedAt: number }> = []): Promise<unknown> {
    return this.client.sync(this.credential, { workerId: this.workerId, leaseEpoch: this.leaseEpoch, sessions: [this.sessionId], actions: [this.actionId], updates });
  }

  /** Uploads `lines` (text made by `text(n)`) in one request. */
  async upload(count: number, text: (n: number) => string): Promise<void> {
    const now = Date.now();
    const lines = Array.from({ length: count }, () => {
      const seq = this.seq++;
      return { seq, actionId: this.actionId, time: now, line: text(seq) };
    });
    await this.client.logs(this.credential, { workerId: this.workerId, leaseEpoch: this.leaseEpoch, sessionId: this.sessionId, lines });
  }

  get sent(): number {
    return this.seq;
  }
}

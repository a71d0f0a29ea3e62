/**
 * A store that cannot write (issue 11), on any machine: SQLite's own limit on the database's
 * pages (`PRAGMA max_page_count`) gives the real SQLITE_FULL a full disk gives, without mounting
 * anything (farm-disk-full.test.ts does that with a tmpfs, as root). Over real HTTP: uploads and
 * reports are refused with 503 and change nothing, the sweep judges no worker meanwhile, and once
 * space returns the same requests go through. On PostgreSQL, its disk_full (SQLSTATE 53100) is a
 * full store too, refused the same way.
 */
import { afterEach, describe, expect, it } from "vitest";
import pg from "pg";
import type { RegisterResponse, SyncResponse } from "../../lib/farm/protocol";
import { openStore, type Store } from "../db/connection";
import { SYSTEM_ACTOR } from "../services/audit";
import { createFarm } from "../context/farm";
import { createPool } from "../services/pools";
import { StoreHealth, isStoreFull } from "../services/store-health";
import { submitToFarm } from "../services/submit-job";
import { sweepWorkers } from "../services/sweep-workers";
import { apiHandler } from "./app-handler";
import { startNodeServer, type RunningServer } from "./node-server";
import { STORE_FULL_RETRY_SECONDS } from "./worker-api";
import { testEngine, testStore } from "../store/engines-test-support";
import { rawOf } from "../store/store-test-support";

const JOB = "specificationVersion: jobtemplate-2023-09\nname: J\nsteps:\n- name: S\n  script:\n    actions:\n      onRun: {command: echo}\n";

let server: RunningServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** A farm on `store` behind the real HTTP API, with one worker holding the one task of JOB. */
async function assignedWorker(store: Store) {
  const clock = { now: Date.now() };
  const farm = createFarm(store, { now: () => clock.now });
  const { token } = await createPool(farm, { name: "p" }, SYSTEM_ACTOR);
  server = await startNodeServer(apiHandler(farm));
  const url = server.url;
  const post = async (path: string, body: unknown, auth: string) => {
    const response = await fetch(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${auth}` }, body: JSON.stringify(body) });
    return { status: response.status, retryAfter: response.headers.get("retry-after"), body: (await response.json()) as Record<string, unknown> };
  };
  const worker = (await post("/api/worker/register", { name: "w", capabilities: { amounts: {}, attributes: {} } }, token)).body as unknown as RegisterResponse;
  await submitToFarm(farm, { template: { text: JOB, format: "yaml" }, parameterValues: {}, templateDir: null, workingDir: "/tmp", now: clock.now });
  const lease = { workerId: worker.workerId, leaseEpoch: worker.leaseEpoch };
  const assigned = (await post("/api/worker/sync", { ...lease, sessions: [], actions: [], updates: [] }, worker.credential)).body as unknown as SyncResponse;
  const { sessionId, actions } = assigned.assignments[0]!;
  return { farm, clock, post, worker, lease, sessionId, actionId: actions[0]!.actionId };
}

describe("StoreHealth", () => {
  it("says once that writes fail and once that they work again, and keeps the sweep waiting a whole window after either", () => {
    const said: string[] = [];
    const clock = { now: 1_000_000 };
    const health = new StoreHealth(
      (line) => said.push(line),
      () => clock.now,
    );
    expect(health.quietFor(75_000)).toBe(true);
    const full = Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
    for (let i = 0; i < 5; i++) expect(health.failed(full).code).toBe("UNAVAILABLE");
    expect(said).toEqual([expect.stringContaining("the farm's store cannot write (database or disk is full)")]);
    // A success right after a failure (a small write that still fit) is not a recovery yet.
    clock.now += 1_000;
    health.succeeded();
    expect(said).toHaveLength(1);
    clock.now += 79_000;
    expect(health.quietFor(75_000)).toBe(true);
    health.succeeded();
    health.succeeded();
    expect(said).toHaveLength(2);
    expect(said[1]).toMatch(/writes again after 80 s; 5 requests were refused/);
    clock.now += 74_000;
    expect(health.quietFor(75_000)).toBe(false);
    clock.now += 1_000;
    expect(health.quietFor(75_000)).toBe(true);
  });

  it("knows a full store by its code, also as the cause of another error", () => {
    const code = (c: string) => Object.assign(new Error(c), { code: c });
    expect([code("SQLITE_FULL"), code("ENOSPC"), code("EDQUOT"), new Error("wrapped", { cause: code("SQLITE_FULL") })].map(isStoreFull)).toEqual([true, true, true, true]);
    expect([code("SQLITE_BUSY"), code("SQLITE_CONSTRAINT_UNIQUE"), new Error("plain"), "SQLITE_FULL"].map(isStoreFull)).toEqual([false, false, false, false]);
  });
});

describe.skipIf(testEngine() === "postgres")("the worker protocol on a full store (SQLite only: PRAGMA max_page_count fills it)", () => {
  it("refuses log uploads with 503 and stores none of them, still hears the worker, loses no worker, and takes the same upload when space returns", async () => {
    const store = openStore(":memory:");
    const { farm, clock, post, worker, lease, sessionId, actionId } = await assignedWorker(store);
    const logs = { ...lease, sessionId, lines: Array.from({ length: 2_000 }, (_, seq) => ({ seq, actionId, time: clock.now, line: `line ${seq} ${"x".repeat(200)}` })) };
    const report = { ...lease, sessions: [sessionId], actions: [], updates: [{ actionId, status: "SUCCEEDED", exitCode: 0, startedAt: clock.now, endedAt: clock.now }] };
    const count = (sql: string) => (store.sqlite.prepare(sql).get() as { n: number }).n;
    const state = () => ({ lines: count("SELECT COUNT(*) AS n FROM log_lines"), succeeded: count("SELECT COUNT(*) AS n FROM tasks WHERE status = 'SUCCEEDED'") });

    // The store may grow no more: the next pages it needs are refused, as on a full disk.
    const pages = store.sqlite.pragma("page_count", { simple: true }) as number;
    store.sqlite.pragma(`max_page_count = ${pages}`);
    const before = state();
    const refusedLogs = await post("/api/worker/logs", logs, worker.credential);
    // With the server's word on when to send again: it is up, so the agent's long backoff does not apply.
    expect(refusedLogs).toMatchObject({ status: 503, retryAfter: String(STORE_FULL_RETRY_SECONDS), body: { error: "UNAVAILABLE", message: expect.stringContaining("the farm's store is full") } });
    expect(state()).toEqual(before);
    // A report that needs no new page still goes through: the worker keeps being heard.
    expect(await post("/api/worker/sync", report, worker.credential)).toMatchObject({ status: 200 });
    expect(state()).toEqual({ lines: before.lines, succeeded: 1 });
    expect(await post("/api/worker/logs", logs, worker.credential)).toMatchObject({ status: 503 });

    // Long past the worker timeout on the farm's clock: the sweep still does not call the worker lost.
    clock.now += (farm.settings.workerTimeoutSeconds + 10) * 1000;
    expect((await sweepWorkers(farm)).lost).toEqual([]);

    store.sqlite.pragma("max_page_count = 1073741823");
    expect(await post("/api/worker/logs", logs, worker.credential)).toMatchObject({ status: 200, body: { acknowledgedThrough: 1_999 } });
    expect(state()).toEqual({ lines: 2_000, succeeded: 1 });
  });
});

/** An error as node-postgres gives one from the server. */
function serverError(code: string, message: string): pg.DatabaseError {
  const error = new pg.DatabaseError(message, message.length, "error");
  error.code = code;
  error.severity = "ERROR";
  return error;
}

describe("isStoreFull on PostgreSQL's errors", () => {
  it("knows disk_full (53100), also as the cause of another error, and no other class 53 code", () => {
    const full = serverError("53100", 'could not extend file "base/16384/16385": No space left on device');
    expect([full, new Error("wrapped", { cause: full })].map(isStoreFull)).toEqual([true, true]);
    const others = [serverError("53200", "out of memory"), serverError("53300", "sorry, too many clients already"), serverError("53400", "configuration limit exceeded")];
    expect(others.map(isStoreFull)).toEqual([false, false, false]);
  });
});

describe.runIf(testEngine() === "postgres")("the worker protocol on a full PostgreSQL store", () => {
  it("refuses a log upload with 503 and Retry-After, stores none of it, and takes the same upload once space returns", async () => {
    // The disk is filled by a trigger that raises the very error PostgreSQL raises when it cannot
    // extend a file, so the real driver error comes through the real write path.
    const store = await testStore();
    const { clock, post, worker, lease, sessionId, actionId } = await assignedWorker(store);
    const logs = { ...lease, sessionId, lines: Array.from({ length: 50 }, (_, seq) => ({ seq, actionId, time: clock.now, line: `line ${seq}` })) };
    const raw = rawOf(store);
    const lines = async () => (await raw.column<number>("SELECT COUNT(*) AS n FROM log_lines"))[0];

    await raw.run(`CREATE FUNCTION disk_is_full() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = 'disk_full'; END $$`);
    await raw.run("CREATE TRIGGER disk_is_full BEFORE INSERT ON log_lines FOR EACH STATEMENT EXECUTE FUNCTION disk_is_full()");
    try {
      expect(await post("/api/worker/logs", logs, worker.credential)).toMatchObject({
        status: 503,
        retryAfter: String(STORE_FULL_RETRY_SECONDS),
        body: { error: "UNAVAILABLE", message: expect.stringContaining("the farm's store is full") },
      });
      expect(await lines()).toBe(0);
    } finally {
      await raw.run("DROP TRIGGER disk_is_full ON log_lines");
      await raw.run("DROP FUNCTION disk_is_full()");
    }
    expect(await post("/api/worker/logs", logs, worker.credential)).toMatchObject({ status: 200, body: { acknowledgedThrough: 49 } });
    expect(await lines()).toBe(50);
  });
});

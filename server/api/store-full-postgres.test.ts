/**
 * A full store on PostgreSQL answers as on SQLite (store-full.test.ts): the server's disk_full
 * (SQLSTATE 53100) is a full store, refused with 503 and Retry-After, nothing of the request
 * stored. The disk is filled by a trigger that raises the very error PostgreSQL raises when it
 * cannot extend a file, so the real driver error comes through the real write path.
 */
import { afterEach, describe, expect, it } from "vitest";
import pg from "pg";
import type { RegisterResponse, SyncResponse } from "../../lib/farm/protocol";
import { SYSTEM_ACTOR } from "../services/audit";
import { createFarm } from "../context/farm";
import { createPool } from "../services/pools";
import { isStoreFull } from "../services/store-health";
import { submitToFarm } from "../services/submit-job";
import { testEngine, testStore } from "../store/engines-test-support";
import { rawOf } from "../store/store-test-support";
import { apiHandler } from "./app-handler";
import { startNodeServer, type RunningServer } from "./node-server";
import { STORE_FULL_RETRY_SECONDS } from "./worker-api";

const JOB = "specificationVersion: jobtemplate-2023-09\nname: J\nsteps:\n- name: S\n  script:\n    actions:\n      onRun: {command: echo}\n";

/** An error as node-postgres gives one from the server. */
function serverError(code: string, message: string): pg.DatabaseError {
  const error = new pg.DatabaseError(message, message.length, "error");
  error.code = code;
  error.severity = "ERROR";
  return error;
}

let server: RunningServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

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
    const store = await testStore();
    const clock = { now: Date.now() };
    const farm = createFarm(store, { now: () => clock.now });
    const { token } = await createPool(farm, { name: "p" }, SYSTEM_ACTOR);
    server = await startNodeServer(apiHandler(farm));
    const post = async (path: string, body: unknown, auth: string) => {
      const response = await fetch(`${server!.url}${path}`, { method: "POST", headers: { "content-type": "application/json", authorization: `Bearer ${auth}` }, body: JSON.stringify(body) });
      return { status: response.status, retryAfter: response.headers.get("retry-after"), body: (await response.json()) as Record<string, unknown> };
    };
    const worker = (await post("/api/worker/register", { name: "w", capabilities: { amounts: {}, attributes: {} } }, token)).body as unknown as RegisterResponse;
    await submitToFarm(farm, { template: { text: JOB, format: "yaml" }, parameterValues: {}, templateDir: null, workingDir: "/tmp", now: clock.now });
    const lease = { workerId: worker.workerId, leaseEpoch: worker.leaseEpoch };
    const assigned = (await post("/api/worker/sync", { ...lease, sessions: [], actions: [], updates: [] }, worker.credential)).body as unknown as SyncResponse;
    const { sessionId, actions } = assigned.assignments[0]!;
    const logs = { ...lease, sessionId, lines: Array.from({ length: 50 }, (_, seq) => ({ seq, actionId: actions[0]!.actionId, time: clock.now, line: `line ${seq}` })) };
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

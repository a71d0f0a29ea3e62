/**
 * The worker protocol over real HTTP: enrollment with the pool's token, the worker's own
 * credential on sync and logs (and nothing else: pool tokens, personal access tokens, revoked and
 * rotated-out credentials are refused; one worker cannot report for another), validation
 * errors, and the long poll — an idle worker's sync is held until work appears.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { RegisterResponse, SyncResponse } from "../../lib/farm/protocol";
import { issueToken } from "../auth/access-tokens";
import { hashSecret } from "../auth/secrets";
import { testPrincipal } from "../auth/test-principals";
import { rawOf } from "../store/store-test-support";
import { testStore } from "../store/engines-test-support";
import { SYSTEM_ACTOR } from "../services/audit";
import { removeWorker } from "../services/drain-worker";
import { createFarm } from "../context/farm";
import { createPool, rotatePoolToken } from "../services/pools";
import { submitToFarm } from "../services/submit-job";
import { apiHandler } from "./app-handler";
import { startNodeServer, type RunningServer } from "./node-server";

const JOB = "specificationVersion: jobtemplate-2023-09\nname: J\nsteps:\n- name: S\n  script:\n    actions:\n      onRun: {command: echo}\n";
const CAPABILITIES = { amounts: {}, attributes: {} };

let server: RunningServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

type Answer = { status: number; body: Record<string, unknown> };

async function setup() {
  const store = await testStore();
  const clock = { now: Date.now() };
  const farm = createFarm(store, { now: () => clock.now, settings: { rotationGraceMinutes: 60 } });
  const { poolId, token } = await createPool(farm, { name: "p" }, SYSTEM_ACTOR);
  server = await startNodeServer(apiHandler(farm));
  const post = async (path: string, body: unknown, auth: string | null): Promise<Answer> => {
    const headers: Record<string, string> = { "content-type": "application/json", ...(auth !== null ? { authorization: `Bearer ${auth}` } : {}) };
    const response = await fetch(`${server!.url}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  // The Node server answers the protocol on its plain route; Next.js's route calls the fetch handler, which reads the body itself.
  const viaFetchHandler = async (path: string, body: unknown, auth: string): Promise<Answer> => {
    const response = await apiHandler(farm)(new Request(`http://127.0.0.1${path}`, { method: "POST", headers: { host: "127.0.0.1", authorization: `Bearer ${auth}` }, body: JSON.stringify(body) }), {
      address: null,
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const enroll = async (name: string, poolToken = token, instanceId?: string): Promise<RegisterResponse> => {
    const answer = await post("/api/worker/register", { name, capabilities: CAPABILITIES, ...(instanceId ? { instanceId } : {}) }, poolToken);
    expect(answer.status).toBe(200);
    return answer.body as unknown as RegisterResponse;
  };
  const idleSync = (worker: RegisterResponse) => ({ workerId: worker.workerId, leaseEpoch: worker.leaseEpoch, sessions: [], actions: [], updates: [] });
  const submit = () => submitToFarm(farm, { template: { text: JOB, format: "yaml" }, parameterValues: {}, templateDir: null, workingDir: "/tmp", now: clock.now });
  return { farm, clock, poolId, token, post, viaFetchHandler, enroll, idleSync, submit };
}

async function taskStatus(farm: ReturnType<typeof createFarm>): Promise<string | undefined> {
  return (await rawOf(farm.store).get<{ status: string }>("SELECT status FROM tasks"))?.status;
}

describe("worker API", () => {
  it("refuses a missing or unknown token, and an invalid body with the field named", async () => {
    const { post, token } = await setup();
    expect(await post("/api/worker/register", { name: "w", capabilities: CAPABILITIES }, "nope")).toMatchObject({ status: 401, body: { error: "UNAUTHORIZED" } });
    expect(await post("/api/worker/register", { name: "w", capabilities: CAPABILITIES }, null)).toMatchObject({ status: 401, body: { error: "UNAUTHORIZED" } });
    const bad = await post("/api/worker/register", { name: "", capabilities: CAPABILITIES }, token);
    expect(bad).toMatchObject({ status: 400, body: { error: "BAD_REQUEST", message: expect.stringContaining("name:") } });
  });

  it("enrolls a worker with a credential of its own, kept only as a hash, with the log caps and an audit row", async () => {
    const { farm, enroll, post, idleSync } = await setup();
    const worker = await enroll("render-01");
    expect(worker.credential).toMatch(/^loom_wkr_/);
    expect(worker.logLimits).toEqual({ actionChars: farm.settings.logCapActionChars, sessionChars: farm.settings.logCapSessionChars });
    const row = await rawOf(farm.store).get<{ credential_hash: string; token_generation: number }>("SELECT credential_hash, token_generation FROM workers WHERE id = ?", worker.workerId);
    expect(row).toEqual({ credential_hash: hashSecret(worker.credential), token_generation: 1 });
    expect(await post("/api/worker/sync", idleSync(worker), worker.credential)).toMatchObject({ status: 200, body: { assignments: [] } });

    const audit = await rawOf(farm.store).all("SELECT actor_kind, actor_id, actor_name, via, action, target_kind, target_id, outcome, address FROM audit_log WHERE action = 'worker.enroll'");
    expect(audit).toEqual([
      {
        actor_kind: "worker",
        actor_id: worker.workerId,
        actor_name: "render-01",
        via: "pool-token",
        action: "worker.enroll",
        target_kind: "worker",
        target_id: worker.workerId,
        outcome: "ok",
        address: expect.stringMatching(/127\.0\.0\.1/),
      },
    ]);
    const everything = (await rawOf(farm.store).all("SELECT * FROM workers")).concat(await rawOf(farm.store).all("SELECT * FROM audit_log"));
    expect(JSON.stringify(everything)).not.toContain(worker.credential);
  });

  it("refuses a report one worker makes for another of the same pool; the real worker's report counts", async () => {
    const { farm, enroll, post, idleSync, submit } = await setup();
    const real = await enroll("real");
    const forger = await enroll("forger");
    await submit();
    const { body } = await post("/api/worker/sync", idleSync(real), real.credential);
    const assignment = (body as unknown as SyncResponse).assignments[0]!;
    const actionId = assignment.actions[0]!.actionId;

    // The forger knows the real worker's id and lease epoch (a small counter): not enough.
    const forged = { ...idleSync(real), updates: [{ actionId, status: "FAILED", exitCode: 1, failMessage: "forged", endedAt: farm.now() }] };
    expect(await post("/api/worker/sync", forged, forger.credential)).toEqual({
      status: 403,
      body: { error: "FORBIDDEN", message: `this credential belongs to worker ${forger.workerId}, not ${real.workerId}` },
    });
    const forgedLines = { workerId: real.workerId, leaseEpoch: real.leaseEpoch, sessionId: assignment.sessionId, lines: [{ seq: 0, actionId, time: 1, line: "forged" }] };
    expect(await post("/api/worker/logs", forgedLines, forger.credential)).toMatchObject({ status: 403, body: { error: "FORBIDDEN" } });
    // Under its own name, the forger's report about the other's action changes nothing.
    expect(await post("/api/worker/sync", { ...forged, workerId: forger.workerId, leaseEpoch: forger.leaseEpoch }, forger.credential)).toMatchObject({ status: 200 });
    expect(await post("/api/worker/logs", { ...forgedLines, workerId: forger.workerId, leaseEpoch: forger.leaseEpoch }, forger.credential)).toMatchObject({ status: 404 });
    expect(await taskStatus(farm)).toBe("ASSIGNED");

    const report = { ...idleSync(real), sessions: [assignment.sessionId], updates: [{ actionId, status: "SUCCEEDED", exitCode: 0, startedAt: farm.now(), endedAt: farm.now() }] };
    expect(await post("/api/worker/sync", report, real.credential)).toMatchObject({ status: 200 });
    expect(await taskStatus(farm)).toBe("SUCCEEDED");
    expect(await rawOf(farm.store).get("SELECT COUNT(*) AS n FROM log_lines")).toEqual({ n: 0 });
  });

  it("takes only a worker credential on sync and logs: pool tokens and personal access tokens are refused", async () => {
    const { farm, enroll, post, idleSync, token } = await setup();
    const worker = await enroll("w");
    const admin = await testPrincipal(farm, "admin");
    const { token: pat } = await farm.store.transaction((tx) => issueToken(tx, farm, SYSTEM_ACTOR, { userId: admin.userId, role: "admin", name: "script", scope: "admin", expiresInDays: 1 }));
    const logs = { workerId: worker.workerId, leaseEpoch: worker.leaseEpoch, sessionId: "session-x", lines: [] };
    expect(await post("/api/worker/sync", idleSync(worker), token)).toMatchObject({ status: 401, body: { error: "UNAUTHORIZED", message: expect.stringContaining("only enrolls") } });
    expect(await post("/api/worker/logs", logs, token)).toMatchObject({ status: 401, body: { error: "UNAUTHORIZED" } });
    expect(await post("/api/worker/register", { name: "w2", capabilities: CAPABILITIES }, pat)).toMatchObject({ status: 401, body: { error: "UNAUTHORIZED" } });
    expect(await post("/api/worker/sync", idleSync(worker), pat)).toMatchObject({ status: 401, body: { message: expect.stringContaining("personal access tokens") } });
    expect(await post("/api/worker/logs", logs, pat)).toMatchObject({ status: 401 });
    // A browser's session cookie is not read at all here.
    const withCookie = await fetch(`${server!.url}/api/worker/sync`, {
      method: "POST",
      headers: { cookie: "loom_session=loom_ses_x", "content-type": "application/json" },
      body: JSON.stringify(idleSync(worker)),
    });
    expect(withCookie.status).toBe(401);
    // And the worker's credential is no key to tRPC.
    const trpc = await fetch(`${server!.url}/api/trpc/pools.list`, { headers: { authorization: `Bearer ${worker.credential}` } });
    expect(trpc.status).toBe(401);
  });

  it("refuses a removed worker's credential, and the one a registration replaced", async () => {
    const { farm, enroll, post, idleSync } = await setup();
    const first = await enroll("w", undefined, "instance-aaaa");
    const second = await enroll("w", undefined, "instance-aaaa");
    expect(second.workerId).toBe(first.workerId);
    expect(await post("/api/worker/sync", idleSync(second), first.credential)).toMatchObject({ status: 401, body: { error: "UNAUTHORIZED" } });
    expect(await post("/api/worker/sync", idleSync(second), second.credential)).toMatchObject({ status: 200 });
    await removeWorker(farm, second.workerId, SYSTEM_ACTOR);
    expect(await post("/api/worker/sync", { ...idleSync(second), leaseEpoch: second.leaseEpoch + 1 }, second.credential)).toMatchObject({ status: 401, body: { error: "UNAUTHORIZED" } });
  });

  it("keeps taking a credential of the previous token generation during the grace period, not after", async () => {
    const { farm, clock, poolId, enroll, post, idleSync, token } = await setup();
    const before = await enroll("old");
    const { token: rotated } = await rotatePoolToken(farm, poolId, SYSTEM_ACTOR);
    clock.now += 59 * 60_000;
    expect(await post("/api/worker/sync", idleSync(before), before.credential)).toMatchObject({ status: 200 });
    const lateEnrolled = await enroll("late", token);
    const after = await enroll("new", rotated);
    clock.now += 2 * 60_000;
    for (const worker of [before, lateEnrolled]) {
      expect(await post("/api/worker/sync", idleSync(worker), worker.credential)).toMatchObject({ status: 401, body: { message: expect.stringContaining("rotated out") } });
    }
    expect(await post("/api/worker/register", { name: "old", capabilities: CAPABILITIES }, token)).toMatchObject({ status: 401 });
    expect(await post("/api/worker/sync", idleSync(after), after.credential)).toMatchObject({ status: 200 });
    // Enrolling again with the current token gives the refused worker its place back.
    const again = await enroll("old", rotated);
    expect(again.workerId).toBe(before.workerId);
    expect(await post("/api/worker/sync", idleSync(again), again.credential)).toMatchObject({ status: 200 });
  });

  it("holds an idle worker's sync until a job is submitted, then answers with the work", async () => {
    const { post, enroll, idleSync, submit } = await setup();
    const worker = await enroll("w");
    let answered = false;
    const held = post("/api/worker/sync", { ...idleSync(worker), waitSeconds: 30 }, worker.credential).then((r) => {
      answered = true;
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answered).toBe(false);
    await submit();
    const { status, body } = await held;
    expect(status).toBe(200);
    expect((body as unknown as SyncResponse).assignments[0]?.actions.map((a) => a.kind)).toEqual(["TASK_RUN"]);
  }, 10_000);

  it("answers at once when the worker is not idle or does not allow a wait", async () => {
    const { post, enroll, idleSync } = await setup();
    const worker = await enroll("w");
    expect((await post("/api/worker/sync", idleSync(worker), worker.credential)).body).toMatchObject({ assignments: [] });
    expect((await post("/api/worker/sync", { ...idleSync(worker), draining: true, waitSeconds: 30 }, worker.credential)).body).toMatchObject({ assignments: [] });
  }, 10_000);

  it("answers the same through the fetch-style handler (Next.js route handlers)", async () => {
    const { viaFetchHandler, token } = await setup();
    expect(await viaFetchHandler("/api/worker/register", { name: "w", capabilities: CAPABILITIES }, "nope")).toMatchObject({ status: 401, body: { error: "UNAUTHORIZED" } });
    const { status, body } = await viaFetchHandler("/api/worker/register", { name: "w", capabilities: CAPABILITIES }, token);
    expect(status).toBe(200);
    const worker = body as unknown as RegisterResponse;
    const sync = { workerId: worker.workerId, leaseEpoch: worker.leaseEpoch, sessions: [], actions: [], updates: [] };
    expect(await viaFetchHandler("/api/worker/sync", sync, worker.credential)).toMatchObject({ status: 200, body: { assignments: [] } });
    expect(await viaFetchHandler("/api/worker/sync", sync, token)).toMatchObject({ status: 401 });
    expect(await viaFetchHandler("/api/worker/nothing", {}, token)).toMatchObject({ status: 404, body: { error: "NOT_FOUND" } });
  });

  it("refuses a body that is not JSON, on the plain route", async () => {
    const { token } = await setup();
    const response = await fetch(`${server!.url}/api/worker/register`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: "{" });
    expect({ status: response.status, body: await response.json() }).toMatchObject({ status: 400, body: { error: "BAD_REQUEST", message: "the body is not valid JSON" } });
  });
});

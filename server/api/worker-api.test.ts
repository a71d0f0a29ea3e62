/**
 * The worker protocol over real HTTP: bearer tokens, validation errors, and the long poll — an
 * idle worker's sync is held until work appears, so a submitted job starts at once.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { SyncResponse } from "../../lib/farm/protocol";
import { openStore } from "../db/connection";
import { createFarm } from "../services/farm";
import { createPool } from "../services/pools";
import { submitToFarm } from "../services/submit-job";
import { apiHandler } from "./app-handler";
import { startNodeServer, type RunningServer } from "./node-server";
import { handleWorkerRequest } from "./worker-api";
import { SYSTEM_ACTOR } from "../services/audit";

const JOB = "specificationVersion: jobtemplate-2023-09\nname: J\nsteps:\n- name: S\n  script:\n    actions:\n      onRun: {command: echo}\n";
const CAPABILITIES = { amounts: {}, attributes: {} };

let server: RunningServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

async function setup() {
  const store = openStore(":memory:");
  const farm = createFarm(store);
  const { token } = createPool(farm, { name: "p" }, SYSTEM_ACTOR);
  server = await startNodeServer(apiHandler(farm));
  // The Node server answers the protocol on its plain route; Next.js's route calls handleWorkerRequest.
  const viaFetchHandler = async (path: string, body: unknown, auth = token) => {
    const response = await handleWorkerRequest(farm, new Request(`http://loom${path}`, { method: "POST", headers: { authorization: `Bearer ${auth}` }, body: JSON.stringify(body) }));
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const post = async (path: string, body: unknown, auth = token) => {
    const response = await fetch(`${server!.url}${path}`, { method: "POST", headers: { authorization: `Bearer ${auth}`, "content-type": "application/json" }, body: JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const submit = () => submitToFarm(farm, { template: { text: JOB, format: "yaml" }, parameterValues: {}, templateDir: null, workingDir: "/tmp", now: Date.now() });
  return { post, viaFetchHandler, submit, token };
}

describe("worker API", () => {
  it("refuses a missing or unknown token, and an invalid body with the field named", async () => {
    const { post } = await setup();
    expect(await post("/api/worker/register", { name: "w", capabilities: CAPABILITIES }, "nope")).toMatchObject({ status: 401, body: { error: "UNAUTHORIZED" } });
    const bad = await post("/api/worker/register", { name: "", capabilities: CAPABILITIES });
    expect(bad).toMatchObject({ status: 400, body: { error: "BAD_REQUEST", message: expect.stringContaining("name:") } });
  });

  it("holds an idle worker's sync until a job is submitted, then answers with the work", async () => {
    const { post, submit } = await setup();
    const { body: lease } = await post("/api/worker/register", { name: "w", capabilities: CAPABILITIES });
    let answered = false;
    const held = post("/api/worker/sync", { workerId: lease.workerId, leaseEpoch: lease.leaseEpoch, sessions: [], actions: [], updates: [], waitSeconds: 30 }).then((r) => {
      answered = true;
      return r;
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(answered).toBe(false);
    submit();
    const { status, body } = await held;
    expect(status).toBe(200);
    expect((body as unknown as SyncResponse).assignments[0]?.actions.map((a) => a.kind)).toEqual(["TASK_RUN"]);
  }, 10_000);

  it("answers at once when the worker is not idle or does not allow a wait", async () => {
    const { post } = await setup();
    const { body: lease } = await post("/api/worker/register", { name: "w", capabilities: CAPABILITIES });
    const base = { workerId: lease.workerId, leaseEpoch: lease.leaseEpoch, sessions: [], actions: [], updates: [] };
    expect((await post("/api/worker/sync", base)).body).toMatchObject({ assignments: [] });
    expect((await post("/api/worker/sync", { ...base, draining: true, waitSeconds: 30 })).body).toMatchObject({ assignments: [] });
  }, 10_000);

  it("answers the same through the fetch-style handler (Next.js route handlers)", async () => {
    const { viaFetchHandler } = await setup();
    expect(await viaFetchHandler("/api/worker/register", { name: "w", capabilities: CAPABILITIES }, "nope")).toMatchObject({ status: 401, body: { error: "UNAUTHORIZED" } });
    const { status, body: lease } = await viaFetchHandler("/api/worker/register", { name: "w", capabilities: CAPABILITIES });
    expect(status).toBe(200);
    const sync = await viaFetchHandler("/api/worker/sync", { workerId: lease.workerId, leaseEpoch: lease.leaseEpoch, sessions: [], actions: [], updates: [] });
    expect(sync).toMatchObject({ status: 200, body: { assignments: [] } });
    expect(await viaFetchHandler("/api/worker/nothing", {})).toMatchObject({ status: 404, body: { error: "NOT_FOUND" } });
  });

  it("refuses a body that is not JSON, on the plain route", async () => {
    const { token } = await setup();
    const response = await fetch(`${server!.url}/api/worker/register`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: "{" });
    expect({ status: response.status, body: await response.json() }).toMatchObject({ status: 400, body: { error: "BAD_REQUEST", message: "the body is not valid JSON" } });
  });
});

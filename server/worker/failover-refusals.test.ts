/**
 * A worker given several servers when one of them answers 4xx. 403/404/405/421 from one of several
 * mean the farm is not there (a proxy's page, a replica mid-upgrade): the worker moves on, enrolled
 * or not. A registration one server refuses is tried on the others; the worker stops only when
 * every server refused it in one round. A 401 on sync still means "enroll again", where it is.
 */
import { afterEach, describe, expect, it } from "vitest";
import { PROTOCOL_PATHS } from "../../lib/farm/protocol";
import type { FakeFarm } from "./fake-farm";
import { answered, SESSION, startAgent, stopAgents, twoReplicas } from "./failover-test-support";
import { waitUntil } from "./worker-test-support";

let farm: FakeFarm;
afterEach(async () => {
  await stopAgents();
  await farm?.close();
});

/** The same answer, many times over (a proxy's, until the test says otherwise). */
const always = (status: number, body: unknown) => Array.from({ length: 1_000 }, () => ({ status, body }));
const registerAt = (replica: { index: number }) => farm.requests.filter((r) => r.replica === replica.index && r.path === PROTOCOL_PATHS.register);

describe("a worker with several servers, refused", () => {
  it.each([
    [404, "Not Found"],
    [400, { error: "BAD_REQUEST", message: "capabilities: unknown attribute (a replica mid-upgrade)" }],
  ])("enrolls at B when A answers its registration %i", async (status, body) => {
    const replicas = await twoReplicas();
    ({ farm } = replicas);
    const { a, b } = replicas;
    a.script(PROTOCOL_PATHS.register, ...always(status, body));
    farm.assignments = [SESSION("s1")];
    const { notices, moves } = startAgent(farm, [a.url, b.url]);
    await waitUntil(() => farm.finalStatus("x-s1") !== undefined, "the Session's end");
    expect(registerAt(a).map((r) => r.status)).toEqual([status]);
    expect(registerAt(b).map((r) => r.status)).toEqual([200]);
    expect(moves()).toEqual([{ type: "server_moved", from: a.url, to: b.url, reason: expect.stringContaining(`HTTP ${status}`), at: expect.any(Number) }]);
    expect(notices.find((n) => n.notice.type === "registered")?.notice).toMatchObject({ server: b.url });
    expect(notices.some((n) => n.notice.type === "stopped" || n.notice.type === "server_unavailable")).toBe(false);
  });

  it("stops on a refused registration only once every server refused it in one round", async () => {
    const replicas = await twoReplicas();
    ({ farm } = replicas);
    const { a, b } = replicas;
    a.script(PROTOCOL_PATHS.register, ...always(404, "Not Found"));
    // B is the farm, which does not know the token.
    const { notices, done } = startAgent(farm, [a.url, b.url], { token: "not-the-pool-token" });
    expect(await done).toBe("refused");
    expect(registerAt(a).map((r) => r.status)).toEqual([404]);
    expect(registerAt(b).map((r) => r.status)).toEqual([401]);
    expect(notices.at(-1)?.notice).toEqual({ type: "stopped", reason: "refused", message: expect.stringContaining("HTTP 401: unknown worker token") });
  });

  it.each([403, 404, 405, 421])("once enrolled at B, leaves it for A when B answers %i", async (status) => {
    const replicas = await twoReplicas();
    ({ farm } = replicas);
    const { a, b } = replicas;
    // A gateway's 503 sends the worker to B, where it enrolls; then B starts answering `status`.
    a.script(PROTOCOL_PATHS.register, { status: 503, body: "Service Unavailable" });
    const { moves } = startAgent(farm, [a.url, b.url]);
    await waitUntil(() => answered(farm, b, PROTOCOL_PATHS.sync).length > 0, "a sync at B");
    b.script(PROTOCOL_PATHS.sync, ...always(status, { error: "REFUSED", message: "not here" }));
    farm.assignments = [SESSION("s1")];
    await waitUntil(() => farm.finalStatus("x-s1") !== undefined, "the Session's end", 10_000);
    expect(moves().map((m) => [m.from, m.to, m.reason])).toEqual([
      [a.url, b.url, "HTTP 503"],
      [b.url, a.url, `HTTP ${status}: not here`],
    ]);
    // The lease and credential went along: one enrollment.
    expect(farm.registrations).toHaveLength(1);
    expect(answered(farm, a, PROTOCOL_PATHS.sync).length).toBeGreaterThan(0);
  });

  it("a 401 on sync still means enrolling again, on the same server", async () => {
    const replicas = await twoReplicas();
    ({ farm } = replicas);
    const { a, b } = replicas;
    const { notices, moves } = startAgent(farm, [a.url, b.url]);
    await waitUntil(() => answered(farm, a, PROTOCOL_PATHS.sync).length > 0, "a sync at A");
    farm.revoke();
    await waitUntil(() => farm.registrations.length === 2 && farm.syncs.some((s) => s.leaseEpoch === 2), "a sync after enrolling again");
    expect(notices.some((n) => n.notice.type === "credential_refused")).toBe(true);
    expect(moves()).toEqual([]);
    expect(farm.requests.filter((r) => r.replica === b.index)).toEqual([]);
  });
});

/**
 * "A applied the request, then died before answering": the worker cannot tell that from a request
 * A never got, so it sends it again, to B. The fake farm applies it at A and then drops the
 * connection, or applies it only after the worker's timeout (after B applied the repeat); it keeps
 * what it applies as the real server does (fake-farm.ts). The repeat changes nothing twice: the
 * task ends once, each log line is stored once, under the seq it had. (The same against the real
 * server: failover-real-farm.test.ts.)
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PROTOCOL_PATHS, type LogsRequest, type SyncRequest } from "../../lib/farm/protocol";
import { tempRoot } from "../session/session-test-support";
import type { FakeFarm } from "./fake-farm";
import { ended, SESSION, startAgent, stopAgents, twoReplicas } from "./failover-test-support";
import { waitUntil } from "./worker-test-support";

let farm: FakeFarm;
afterEach(async () => {
  await stopAgents();
  await farm?.close();
});

/** The sync reporting the task's end, or the upload of its last line. */
const TARGETS = {
  "the sync reporting the task's end": (path: string, body: unknown) => path === PROTOCOL_PATHS.sync && (body as SyncRequest).updates.some((u) => u.actionId === "t-s1" && ended(u)),
  "the upload of the task's last line": (path: string, body: unknown) => path === PROTOCOL_PATHS.logs && (body as LogsRequest).lines.some((l) => l.line === "AFTER 4"),
};

describe("a request A applied but never answered, sent again to B", () => {
  it.each([
    ["the sync reporting the task's end", "drop"],
    ["the sync reporting the task's end", "slow"],
    ["the upload of the task's last line", "drop"],
    ["the upload of the task's last line", "slow"],
  ] as const)("%s, %s at A: applied once", async (target, mode) => {
    const replicas = await twoReplicas();
    ({ farm } = replicas);
    const { a, b } = replicas;
    const trigger = join(tempRoot(), "go");
    farm.assignments = [SESSION("s1", trigger)];
    const on = TARGETS[target];
    a.fault = mode === "drop" ? { mode, on } : { mode, on, ms: 2_000 };
    const { agent, moves } = startAgent(farm, [a.url, b.url], { requestTimeoutMs: 1_000 });
    await waitUntil(() => farm.storedText("s1").includes("BEFORE 4") && agent.logs.pending === 0, "the task's first lines at A");
    writeFileSync(trigger, "");
    await waitUntil(
      () => a.faulted === 1 && farm.finalStatus("x-s1") !== undefined && agent.logs.pending === 0 && farm.syncs.at(-1)?.sessions.length === 0,
      "the Session's end, and the faulty request applied at A",
      10_000,
    );
    expect(moves().map((m) => [m.from, m.to])).toEqual([[a.url, b.url]]);

    // The request went to both, and was applied by both.
    const repeated = farm.requests.filter((r) => on(r.path, r.body) && r.status === 200);
    expect(repeated.map((r) => r.replica).sort()).toEqual([a.index, b.index]);
    if (mode === "slow") expect(repeated.map((r) => r.replica)).toEqual([b.index, a.index]);

    // The task ended once, as it did; every action's ending stored once.
    expect(farm.finalStatus("t-s1")).toBe("SUCCEEDED");
    const endings = farm.updates.filter((u) => u.actionId === "t-s1" && ended(u));
    expect(endings).toHaveLength(target === "the sync reporting the task's end" ? 2 : 1);
    expect(new Set(endings.map((u) => JSON.stringify(u))).size).toBe(1);
    expect(["e-s1", "t-s1", "x-s1"].map((id) => farm.finalStatus(id))).toEqual(["SUCCEEDED", "SUCCEEDED", "SUCCEEDED"]);

    // Each line stored once, under the seq it had the first time.
    const text = farm.storedText("s1");
    expect(farm.storedSeqs("s1")).toEqual(text.map((_, i) => i));
    for (const line of ["FARM_ENTER", "BEFORE 4", "AFTER 0", "AFTER 4", "FARM_EXIT"]) expect(text.filter((t) => t === line)).toEqual([line]);
    const received = farm.received.get("s1") ?? [];
    const last = text.indexOf("AFTER 4");
    expect(received.filter((seq) => seq === last)).toHaveLength(target === "the upload of the task's last line" ? 2 : 1);
  });
});

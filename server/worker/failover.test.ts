/**
 * A worker given several servers (replicas of one farm): two listeners of one fake farm sharing
 * its state, as two `loom serve` on one database. The worker moves to the next server when the
 * one it uses dies (connections cut, mid-task or mid long poll), hangs (the request timeout),
 * or answers 502/503/504 without Retry-After; it stays when a 503 says when to come back, and
 * while a loaded server holds a long poll a little past its wait; it starts on the second when
 * the first is down; it backs off between rounds when all are down, and when log uploads fail
 * while syncs go through. What it held goes to the new server: nothing lost, nothing twice.
 * (Refusals: failover-refusals.test.ts; requests applied twice: failover-repeats.test.ts.)
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { PROTOCOL_PATHS, type SyncRequest } from "../../lib/farm/protocol";
import { tempRoot } from "../session/session-test-support";
import { FakeFarm, type FakeReplica } from "./fake-farm";
import * as support from "./failover-test-support";
import { ended, SESSION, sleep, stopAgents } from "./failover-test-support";
import { deadUrl, waitUntil } from "./worker-test-support";

let farm: FakeFarm;
afterEach(async () => {
  await stopAgents();
  await farm?.close();
});

async function twoReplicas(): Promise<[FakeReplica, FakeReplica]> {
  const replicas = await support.twoReplicas();
  farm = replicas.farm;
  return [replicas.a, replicas.b];
}

const makeAgent = (serverUrl: string[], options: Parameters<typeof support.startAgent>[2] = {}) => support.startAgent(farm, serverUrl, options);
const answered = (replica: FakeReplica, path: string) => support.answered(farm, replica, path);
const updatesAt = (replica: FakeReplica) => support.updatesAt(farm, replica);
const seqsAt = (replica: FakeReplica) => support.seqsAt(farm, replica);

describe("a worker with several servers", () => {
  it("moves to B when A dies mid-task, keeps its lease, and the task's end and every line reach B exactly once", async () => {
    const [a, b] = await twoReplicas();
    const trigger = join(tempRoot(), "go");
    farm.assignments = [SESSION("s1", trigger)];
    const { agent, moves } = makeAgent([a.url, b.url]);
    await waitUntil(
      () => farm.storedText("s1").includes("BEFORE 4") && farm.updates.some((u) => u.actionId === "t-s1" && u.status === "RUNNING") && agent.logs.pending === 0,
      "the task's start and first lines at A",
    );
    expect(farm.requests.every((r) => r.replica === a.index)).toBe(true);
    await a.close();
    const died = performance.now();
    writeFileSync(trigger, "");
    await waitUntil(() => farm.finalStatus("x-s1") !== undefined && agent.logs.pending === 0 && farm.syncs.at(-1)?.sessions.length === 0, "the Session's end at B", 10_000);

    expect(moves()).toEqual([{ type: "server_moved", from: a.url, to: b.url, reason: expect.any(String), at: expect.any(Number) }]);
    expect(moves()[0]!.at - died).toBeLessThan(3_000);
    // The credential and lease are the farm's: no second enrollment, the same lease at B.
    expect(farm.registrations).toHaveLength(1);
    expect(answered(b, PROTOCOL_PATHS.sync).every((r) => r.authorization === `Bearer ${farm.credentials[0]}` && (r.body as SyncRequest).leaseEpoch === 1)).toBe(true);
    // The task's end, and the exit's, came once, to B.
    expect(farm.updates.filter((u) => u.actionId === "t-s1" && ended(u))).toEqual([expect.objectContaining({ status: "SUCCEEDED" })]);
    expect(
      updatesAt(b)
        .filter(ended)
        .map((u) => u.actionId),
    ).toEqual(["t-s1", "x-s1"]);
    // Every line stored once, in order; each seq received once in all, the later ones by B.
    const text = farm.storedText("s1");
    expect(farm.storedSeqs("s1")).toEqual(text.map((_, i) => i));
    expect(text).toEqual(expect.arrayContaining(["FARM_ENTER", "BEFORE 0", "BEFORE 4", "AFTER 0", "AFTER 4", "FARM_EXIT"]));
    expect(farm.received.get("s1")).toEqual(text.map((_, i) => i));
    const afterSeqs = text.flatMap((line, seq) => (line.startsWith("AFTER") || line === "FARM_EXIT" ? [seq] : []));
    expect(seqsAt(b)).toEqual(expect.arrayContaining(afterSeqs));
    expect(new Set(seqsAt(b)).size).toBe(seqsAt(b).length);
  });

  it("a long poll held by A when it dies fails at once; the worker moves and takes work from B", async () => {
    const [a, b] = await twoReplicas();
    farm.longPoll = true;
    farm.syncIntervalSeconds = 10;
    const { moves } = makeAgent([a.url, b.url]);
    await waitUntil(() => farm.registrations.length === 1 && farm.waiting === 1, "an idle sync held by A");
    await a.close();
    const died = performance.now();
    await waitUntil(() => moves().length === 1 && farm.waiting === 1, "the worker to wait on B instead");
    expect(moves()[0]!.at - died).toBeLessThan(1_000);
    farm.assignments = [SESSION("s1")];
    await waitUntil(() => farm.finalStatus("x-s1") !== undefined, "the Session's end", 10_000);
    expect(
      updatesAt(b)
        .filter(ended)
        .map((u) => u.actionId),
    ).toEqual(["e-s1", "t-s1", "x-s1"]);
    expect(moves()).toHaveLength(1);
  });

  it("a hung server (connection open, no answer) is left after the request timeout", async () => {
    const [a, b] = await twoReplicas();
    farm.longPoll = true;
    farm.syncIntervalSeconds = 1;
    farm.assignments = [SESSION("s1")];
    const { moves } = makeAgent([a.url, b.url], { requestTimeoutMs: 1_500 });
    await waitUntil(() => farm.finalStatus("x-s1") !== undefined, "the first Session at A");
    a.frozen = true;
    const hung = performance.now();
    await waitUntil(() => moves().length === 1, "the move to B", 10_000);
    expect(moves()[0]).toMatchObject({ from: a.url, to: b.url, reason: "no answer in time" });
    // A held long poll (1 s) may finish first; the next, an idle sync, waits out the timeout after its wait (1.5 s + 1 s).
    expect(moves()[0]!.at - hung).toBeLessThan(5_000);
    farm.assignments = [SESSION("s2")];
    await waitUntil(() => updatesAt(b).some((u) => u.actionId === "x-s2" && ended(u)), "the second Session's end at B", 10_000);
    expect(farm.finalStatus("t-s2")).toBe("SUCCEEDED");
  });

  it("stays with A while it answers 503 with Retry-After (up, its store full), but moves on a bare 503", async () => {
    const [a, b] = await twoReplicas();
    const full = { status: 503, body: { error: "UNAVAILABLE", message: "the farm's store is full" }, headers: { "retry-after": "1" } };
    farm.script(PROTOCOL_PATHS.sync, full, full);
    farm.assignments = [SESSION("s1")];
    const { agent, notices, moves } = makeAgent([a.url, b.url]);
    await waitUntil(() => farm.finalStatus("x-s1") !== undefined && agent.logs.pending === 0, "the Session's end", 10_000);
    expect(farm.requests.filter((r) => r.status === 503)).toHaveLength(2);
    expect(farm.requests.filter((r) => r.replica === b.index)).toEqual([]);
    expect(moves()).toEqual([]);

    const unavailable = () => notices.filter((n) => n.notice.type === "server_unavailable").length;
    const before = unavailable();
    farm.script(PROTOCOL_PATHS.sync, { status: 503 });
    await waitUntil(() => moves().length === 1 && answered(b, PROTOCOL_PATHS.sync).length > 0, "the move to B");
    expect(moves()[0]).toMatchObject({ from: a.url, to: b.url, reason: "HTTP 503: try later" });
    // Straight to B, without a backoff or an "unavailable" line.
    expect(unavailable()).toBe(before);
  });

  it("starts on the second server when the first is down", async () => {
    farm = await new FakeFarm().start();
    const dead = await deadUrl();
    farm.assignments = [SESSION("s1")];
    const { notices } = makeAgent([dead, farm.url]);
    await waitUntil(() => farm.finalStatus("x-s1") !== undefined, "the Session's end");
    expect(notices.map((n) => n.notice).slice(0, 2)).toEqual([
      { type: "server_moved", from: dead, to: farm.url, reason: expect.stringContaining("ECONNREFUSED") },
      { type: "registered", workerId: "worker-1", leaseEpoch: 1, server: farm.url },
    ]);
    expect(notices.some((n) => n.notice.type === "server_unavailable")).toBe(false);
  });

  it("when every server is down it backs off between rounds, and takes the first that comes back", async () => {
    const [a, b] = await twoReplicas();
    const port = Number(new URL(b.url).port);
    await Promise.all([a.close(), b.close()]);
    const { notices, moves } = makeAgent([a.url, b.url]);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // Each round: A, at once B, then a backoff of 150-400 ms: a few rounds, not a tight loop.
    const rounds = moves().length / 2;
    expect(rounds).toBeGreaterThanOrEqual(2);
    expect(rounds).toBeLessThanOrEqual(10);
    expect(notices.filter((n) => n.notice.type === "server_unavailable")).toHaveLength(1);
    const revived = await farm.replica(port);
    await waitUntil(() => farm.registrations.length === 1, "enrollment at the revived B", 5_000);
    expect(farm.requests.every((r) => r.replica === revived.index)).toBe(true);
    expect(moves().at(-1)?.to).toBe(b.url);
  });

  it.each(["every server", "A alone"])("when log uploads get 504 from %s while syncs go through, it backs off (no tight loop) and ships once uploads are taken", async (where) => {
    const [a, b] = await twoReplicas();
    const failing = where === "A alone" ? [a] : [a, b];
    // A proxy timing out slow log ingests: uploads fail, the small syncs pass.
    for (const replica of failing) replica.script(PROTOCOL_PATHS.logs, ...Array.from({ length: 10_000 }, () => ({ status: 504, body: "Gateway Timeout" })));
    farm.assignments = [SESSION("s1")];
    const { agent, moves, count } = makeAgent([a.url, b.url], { retry: { initialMs: 500, maxMs: 1_000 } });
    await waitUntil(() => farm.requests.some((r) => r.status === 504), "a failed upload");
    if (where === "every server") {
      const first = farm.requests.length;
      const began = performance.now();
      await sleep(2_000);
      const perSecond = (farm.requests.length - first) / ((performance.now() - began) / 1000);
      expect(perSecond).toBeLessThan(10);
      expect(moves().length).toBeLessThan(10);
      expect(count("server_unavailable")).toBe(1);
      for (const replica of failing) replica.unscript();
    }
    await waitUntil(() => farm.finalStatus("x-s1") !== undefined && agent.logs.pending === 0, "every line stored", 10_000);
    const text = farm.storedText("s1");
    expect(farm.storedSeqs("s1")).toEqual(text.map((_, i) => i));
    expect(text).toEqual(expect.arrayContaining(["FARM_ENTER", "BEFORE 0", "AFTER 4", "FARM_EXIT"]));
    // A failing alone: one move, to B, where the lines went.
    if (where === "A alone") expect(moves().map((m) => [m.from, m.to])).toEqual([[a.url, b.url]]);
  });

  it("waits for a long poll that a loaded server answers a little after its wait, instead of leaving it", async () => {
    const [a, b] = await twoReplicas();
    farm.longPoll = true;
    farm.syncIntervalSeconds = 2;
    // Each idle sync is held its 2 s, then answered 0.5 s late: past the 1 s timeout, within 1 s + the wait.
    a.lateMs = 500;
    const { moves } = makeAgent([a.url, b.url], { requestTimeoutMs: 1_000 });
    const polls = () => answered(a, PROTOCOL_PATHS.sync).filter((r) => (r.body as SyncRequest).waitSeconds === 2).length;
    await waitUntil(() => polls() >= 2 || moves().length > 0, "two long polls answered late, or a move", 10_000);
    expect(moves()).toEqual([]);
    expect(farm.requests.filter((r) => r.replica === b.index)).toEqual([]);
  });
});

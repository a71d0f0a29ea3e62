/**
 * Log uploads against a real migrated SQLite: the caps per action and per Session hold whatever
 * a worker sends (one marker line where storing stopped, refused lines counted, nothing stored
 * twice when a batch comes again, even two uploads at once), a line cannot be attributed to
 * another Session's action, a worker uploads only into its own Sessions, and an upload takes a
 * few statements whatever its size.
 */
import { describe, expect, it } from "vitest";
import type { LogsRequest } from "../../lib/farm/protocol";
import type { AsyncStore, Tx } from "../store/engine/engine";
import { rawOf } from "../store/store-test-support";
import { LINUX_WORKER, SimulatedWorker, submit, testFarm, type TestFarm } from "./farm-test-support";
import { ingestLogs } from "./ingest-logs";

const TWO_TASKS = `specificationVersion: jobtemplate-2023-09
name: J
steps:
- name: S
  parameterSpace:
    taskParameterDefinitions:
    - {name: F, type: INT, range: "1-2"}
  script:
    actions:
      onRun: {command: echo}
`;

type Line = LogsRequest["lines"][number];

async function holding(t: TestFarm, name = "w") {
  await submit(t, TWO_TASKS);
  const worker = await SimulatedWorker.create(t, LINUX_WORKER(name), () => "hold");
  const assignment = (await worker.sync()).assignments[0]!;
  const upload = async (lines: Line[]) => ingestLogs(t.farm, await worker.identity, { workerId: worker.workerId, leaseEpoch: worker.leaseEpoch, sessionId: assignment.sessionId, lines });
  return { worker, sessionId: assignment.sessionId, actionId: assignment.actions[0]!.actionId, upload };
}

const lines = (from: number, count: number, actionId: string | null, chars = 100): Line[] =>
  Array.from({ length: count }, (_, i) => ({ seq: from + i, actionId, time: 1_000 + from + i, line: `${from + i}:`.padEnd(chars, "x") }));

async function stored(t: TestFarm, sessionId: string) {
  return rawOf(t.farm.store).all<{ seq: number; action_id: string | null; line: string }>("SELECT seq, action_id, line FROM log_lines WHERE session_id = ? ORDER BY id", sessionId);
}

async function counters(t: TestFarm, sessionId: string, actionId: string) {
  const raw = rawOf(t.farm.store);
  const session = (await raw.get<{ log_chars: number; log_dropped: number }>("SELECT log_chars, log_dropped FROM sessions WHERE id = ?", sessionId))!;
  const action = (await raw.get<{ log_chars: number }>("SELECT log_chars FROM session_actions WHERE id = ?", actionId))!;
  return { sessionChars: session.log_chars, dropped: session.log_dropped, actionChars: action.log_chars };
}

/** The store, counting the statements its units run. */
function counting(store: AsyncStore): { store: AsyncStore; statements: () => number } {
  let statements = 0;
  const counted = (tx: Tx): Tx =>
    new Proxy(tx, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property, target);
        if (typeof value !== "function") return value;
        if (property === "get" || property === "all" || property === "run") statements++;
        return (...args: unknown[]) => (value as (...a: unknown[]) => unknown).apply(target, args);
      },
    });
  return {
    store: { engine: store.engine, transaction: (fn, options) => store.transaction((tx) => fn(counted(tx)), options), read: (fn, options) => store.read(fn, options), close: () => store.close() },
    statements: () => statements,
  };
}

const textLength = (rows: Array<{ line: string }>) => rows.reduce((n, r) => n + r.line.length, 0);

describe("ingestLogs caps", () => {
  it("stores an action's lines up to its cap, then one marker, and counts the rest; a batch sent again stores nothing twice", async () => {
    const t = await testFarm({ logCapActionChars: 1_000, logCapSessionChars: 100_000 });
    const s = await holding(t);
    expect(await s.upload(lines(0, 25, s.actionId))).toEqual({ acknowledgedThrough: 24 });
    await s.upload(lines(25, 5, s.actionId));
    const rows = await stored(t, s.sessionId);
    expect(rows.slice(0, 10).map((r) => r.seq)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(rows.slice(10)).toEqual([{ seq: expect.any(Number), action_id: s.actionId, line: "… later lines dropped: over the log cap of 0.001 MiB per action" }]);
    expect(rows[10]!.seq).toBeLessThan(0);
    expect(await counters(t, s.sessionId, s.actionId)).toEqual({ sessionChars: textLength(rows), dropped: 20, actionChars: textLength(rows) });
    expect(textLength(rows)).toBeLessThan(1_100);
    // Sent again after a lost answer: the stored lines and the marker stay as they are (the
    // refused lines left no trace to recognise them by, so they are counted again).
    await s.upload(lines(0, 30, s.actionId));
    expect(await stored(t, s.sessionId)).toEqual(rows);
    expect(await counters(t, s.sessionId, s.actionId)).toMatchObject({ sessionChars: textLength(rows), actionChars: textLength(rows) });
  });

  it("stores nothing more of an action once its marker is written, even lines short enough to fit", async () => {
    const t = await testFarm({ logCapActionChars: 1_000, logCapSessionChars: 100_000 });
    const s = await holding(t);
    await s.upload([...lines(0, 5, s.actionId), ...lines(5, 1, s.actionId, 700), ...lines(6, 1, s.actionId)]);
    await s.upload(lines(7, 1, s.actionId));
    const rows = await stored(t, s.sessionId);
    expect(rows.map((r) => r.seq)).toEqual([0, 1, 2, 3, 4, expect.any(Number)]);
    expect(rows.at(-1)!.line).toMatch(/^… later lines dropped/);
    expect(await counters(t, s.sessionId, s.actionId)).toEqual({ sessionChars: textLength(rows), dropped: 3, actionChars: textLength(rows) });
  });

  it("holds whatever a worker sends: lines of the protocol's longest, thousands of them", async () => {
    const t = await testFarm({ logCapActionChars: 200_000, logCapSessionChars: 1_000_000 });
    const s = await holding(t);
    for (let batch = 0; batch < 4; batch++) await s.upload(lines(batch * 30, 30, s.actionId, 70_000));
    await s.upload(lines(200, 5_000, null, 10));
    const rows = await stored(t, s.sessionId);
    const ofAction = rows.filter((r) => r.action_id === s.actionId);
    expect(textLength(ofAction)).toBeLessThan(220_000);
    expect(ofAction.filter((r) => r.line.startsWith("… later lines dropped")).length).toBe(1);
    expect(textLength(rows)).toBeLessThan(1_100_000);
  });

  it("caps the Session across its actions, with one marker for the Session", async () => {
    const t = await testFarm({ logCapActionChars: 1_000, logCapSessionChars: 1_500 });
    const s = await holding(t);
    await s.upload(lines(0, 10, s.actionId));
    s.worker.finish(s.actionId, { status: "SUCCEEDED", exitCode: 0 });
    const second = (await s.worker.sync()).assignments[0]!.actions[0]!.actionId;
    await s.upload(lines(10, 10, second));
    await s.upload(lines(20, 3, null));
    const rows = await stored(t, s.sessionId);
    expect(rows.filter((r) => r.line.startsWith("…"))).toEqual([{ seq: -1, action_id: second, line: "… later lines dropped: over the log cap of 0.001 MiB per Session" }]);
    expect(rows.filter((r) => r.action_id === second && !r.line.startsWith("…")).map((r) => r.seq)).toEqual([10, 11, 12, 13, 14]);
    expect(await counters(t, s.sessionId, second)).toMatchObject({ sessionChars: textLength(rows), dropped: 8 });
    expect(textLength(rows)).toBeLessThan(1_650);
  });

  it("keeps a line that names another Session's action in its own Session, attributed to none", async () => {
    const t = await testFarm();
    const a = await holding(t, "a");
    const b = await holding(t, "b");
    await b.upload([{ seq: 0, actionId: a.actionId, time: 1, line: "mine, really" }]);
    expect(await stored(t, b.sessionId)).toEqual([{ seq: 0, action_id: null, line: "mine, really" }]);
    expect(await stored(t, a.sessionId)).toEqual([]);
  });

  it("takes uploads only into the calling worker's own Sessions", async () => {
    const t = await testFarm();
    const a = await holding(t, "a");
    const b = await holding(t, "b");
    const intoA = { workerId: a.worker.workerId, leaseEpoch: a.worker.leaseEpoch, sessionId: a.sessionId, lines: lines(0, 1, null) };
    await expect(ingestLogs(t.farm, await b.worker.identity, intoA)).rejects.toThrow(`this credential belongs to worker ${b.worker.workerId}, not ${a.worker.workerId}`);
    await expect(ingestLogs(t.farm, await b.worker.identity, { ...intoA, workerId: b.worker.workerId, leaseEpoch: b.worker.leaseEpoch })).rejects.toThrow(/is not one of worker/);
    expect(await stored(t, a.sessionId)).toEqual([]);
  });

  it("counts right when two uploads to one Session run at once (a worker retrying)", async () => {
    const t = await testFarm({ logCapActionChars: 200_000, logCapSessionChars: 1_000_000 });
    const s = await holding(t);
    // Connections for each (PostgreSQL): the uploads then overlap rather than wait for one.
    await Promise.all(Array.from({ length: 3 }, () => t.farm.store.read((tx) => tx.get("SELECT 1 AS one"))));
    await Promise.all([s.upload(lines(0, 1_500, s.actionId)), s.upload(lines(1_500, 1_500, s.actionId)), s.upload(lines(0, 1_500, s.actionId))]);
    const rows = await stored(t, s.sessionId);
    expect(rows.filter((r) => r.seq >= 0)).toHaveLength(2_000);
    expect(rows.filter((r) => r.seq < 0)).toEqual([{ seq: expect.any(Number), action_id: s.actionId, line: expect.stringMatching(/^… later lines dropped: over the log cap/) }]);
    const { dropped, ...chars } = await counters(t, s.sessionId, s.actionId);
    expect(chars).toEqual({ sessionChars: textLength(rows), actionChars: textLength(rows) });
    // Whichever came first, each of the 3,000 lines was stored once or refused: a refused line of
    // the batch sent twice may be counted twice, never a stored one.
    expect(dropped).toBeGreaterThanOrEqual(1_000);
    expect(dropped).toBeLessThanOrEqual(2_500);
  });

  it("stores one line of a seq an upload carries twice, and counts it once", async () => {
    const t = await testFarm();
    const s = await holding(t);
    await s.upload([
      { seq: 0, actionId: s.actionId, time: 1, line: "first" },
      { seq: 0, actionId: s.actionId, time: 2, line: "again, other text" },
      { seq: 1, actionId: null, time: 3, line: "x\ud800y" },
    ]);
    const rows = await stored(t, s.sessionId);
    expect(rows.map((r) => [r.seq, r.action_id])).toEqual([
      [0, s.actionId],
      [1, null],
    ]);
    expect(rows[0]!.line).toBe("first");
    expect(rows[1]!.line).toMatch(/^x\ufffd+y$/); // a lone surrogate is stored as the replacement character
    expect(await counters(t, s.sessionId, s.actionId)).toEqual({ sessionChars: 5 + 3, dropped: 0, actionChars: 5 });
  });

  it("stores an upload of thousands of lines in a few statements, whatever its size", async () => {
    const t = await testFarm({ logCapActionChars: 100_000, logCapSessionChars: 1_000_000 });
    const s = await holding(t);
    const { store, statements } = counting(t.farm.store);
    const identity = await s.worker.identity;
    const upload = (batch: Line[]) => ingestLogs({ ...t.farm, store }, identity, { workerId: s.worker.workerId, leaseEpoch: s.worker.leaseEpoch, sessionId: s.sessionId, lines: batch });
    expect(await upload(lines(0, 10, s.actionId))).toEqual({ acknowledgedThrough: 9 });
    const few = statements();
    expect(few).toBeLessThanOrEqual(6);
    // Past the action's cap (1,000 lines of 100), the rest of the Session's: stored, refused, a marker.
    expect(await upload([...lines(10, 2_500, s.actionId), ...lines(2_510, 2_490, null)])).toEqual({ acknowledgedThrough: 4_999 });
    expect(statements() - few).toBeLessThanOrEqual(6);
    // Sent again: nothing more stored.
    await upload([...lines(10, 2_500, s.actionId), ...lines(2_510, 2_490, null)]);
    expect(statements() - few).toBeLessThanOrEqual(12);
    const rows = await stored(t, s.sessionId);
    expect(rows.filter((r) => r.action_id === s.actionId && r.seq >= 0)).toHaveLength(1_000);
    expect(rows.filter((r) => r.action_id === null)).toHaveLength(2_490);
    expect(rows.filter((r) => r.seq < 0)).toEqual([
      { seq: expect.any(Number), action_id: s.actionId, line: expect.stringMatching(/^… later lines dropped: over the log cap of [\d.]+ MiB per action$/) },
    ]);
    expect(await counters(t, s.sessionId, s.actionId)).toEqual({ sessionChars: textLength(rows), dropped: 1_510 * 2, actionChars: textLength(rows.filter((r) => r.action_id === s.actionId)) });
  });
});

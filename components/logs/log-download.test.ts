import { describe, expect, it } from "vitest";
import { logFileName, logText, readWholeLog } from "./log-download";

/** A server holding `total` lines, answering pages as logs.lines does (ids after `afterId`, at most `limit`). */
function server(total: number) {
  const calls: Array<[number, number]> = [];
  const lines = Array.from({ length: total }, (_, i) => ({ id: 10 + i * 2, actionId: null, time: 0, line: `line ${i}` }));
  const page = async (afterId: number, limit: number) => {
    calls.push([afterId, limit]);
    return lines.filter((l) => l.id > afterId).slice(0, limit);
  };
  return { lines, page, calls };
}

describe("readWholeLog", () => {
  it.each([
    [0, 1],
    [3, 1],
    [5, 2],
    [12, 3],
  ] as const)("%d lines in pages of 5 take %d reads and come back whole, in order", async (total, reads) => {
    const s = server(total);
    const progress: number[] = [];
    const all = await readWholeLog(s.page, (n) => progress.push(n), 5);
    expect(all).toEqual(s.lines);
    expect(s.calls).toHaveLength(reads);
    expect(progress.at(-1)).toBe(total);
  });

  it("asks for each next page after the last id received", async () => {
    const s = server(7);
    await readWholeLog(s.page, undefined, 3);
    expect(s.calls.map(([after]) => after)).toEqual([0, s.lines[2]!.id, s.lines[5]!.id]);
  });
});

describe("logText and logFileName", () => {
  it("writes one timestamped line per log line", () => {
    expect(logText([{ id: 1, actionId: null, time: Date.UTC(2026, 0, 2, 3, 4, 5, 6), line: "hello ********" }])).toBe("2026-01-02T03:04:05.006Z hello ********\n");
    expect(logText([])).toBe("");
  });

  it.each([
    [{ sessionId: "sess-1" }, "session-sess-1.log.txt"],
    [{ sessionId: "s", actionId: "a/1" }, "session-s-action-a_1.log.txt"],
    [{ jobId: "job 9" }, "job-job_9.log.txt"],
    [{}, "log.log.txt"],
  ] as const)("%j → %s", (view, name) => {
    expect(logFileName(view)).toBe(name);
  });
});

/**
 * The log cap (issue 10, point 6) end to end: a real server with a small cap per action, a real
 * `loom worker`, and a task printing 150 times the cap (300 MiB). The stored text of the task stays
 * under the cap plus 10 % with one marker line saying how much was dropped, and the worker's
 * peak memory (VmHWM) stays far below what the task printed: past the cap it only counts lines.
 */
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FarmHarness, python, submitTemplate, waitFor, waitForJobEnd, waitForWorkers } from "./farm-harness";

let h: FarmHarness;
beforeEach(() => {
  h = new FarmHarness();
});
afterEach(async () => {
  await h.dispose();
});

const MIB = 1024 * 1024;
const CAP = 2 * MIB;
const PRINTED_MIB = 300;

/** Peak resident memory of a process (kB → bytes). */
function peakRss(pid: number): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  if (!kb) throw new Error(`no VmHWM for ${pid}`);
  return Number(kb) * 1024;
}

describe("log caps", () => {
  it("stores a task printing far past the action cap under the cap plus 10 %, with one marker line, and the worker's memory stays bounded", async () => {
    const farm = await h.startFarm({ logCapActionChars: CAP, logCapSessionChars: 4 * CAP });
    const worker = h.startWorker(farm.url, farm.token, "w1");
    await waitForWorkers(farm.api, 1);
    const before = peakRss(worker.child.pid!);
    // 100-character lines (99 and a newline), PRINTED_MIB of them, in 1 MiB writes.
    const print = `import sys\nline = ("x" * 98 + "|\\n") * 10486\nfor _ in range(${PRINTED_MIB}):\n    sys.stdout.write(line)\nsys.stdout.flush()\nprint("the end")`;
    const jobId = await submitTemplate(farm.api, { specificationVersion: "jobtemplate-2023-09", name: "Loud", steps: [{ name: "Print", script: { actions: { onRun: python(print) } } }] });
    const ended = await waitForJobEnd(farm.api, jobId, 170_000);
    expect(ended.status).toBe("SUCCEEDED");

    // Through the store, not its raw connection: the server in this process may have a unit open.
    const { store } = farm;
    const action = (await store.read((tx) => tx.get<{ id: string }>("SELECT a.id FROM session_actions a JOIN sessions s ON s.id = a.session_id WHERE s.job_id = ? AND a.kind = 'TASK_RUN'", [jobId])))!;
    const markers = await waitFor(async () => {
      const found = await store.read((tx) => tx.all<{ line: string }>("SELECT line FROM log_lines WHERE action_id = ? AND line LIKE '…%'", [action.id]));
      return found.length > 0 && found;
    }, "the worker's marker line");
    expect(markers).toEqual([{ line: expect.stringMatching(/^… \d+ lines \(\d+ characters\) dropped: over the log cap of 2 MiB per action$/) }]);
    const stored = (await store.read((tx) => tx.get<{ chars: number; lines: number }>("SELECT SUM(LENGTH(line)) AS chars, COUNT(*) AS lines FROM log_lines WHERE action_id = ?", [action.id])))!;
    expect(stored.chars).toBeLessThan(CAP * 1.1);
    const [, dropped, droppedChars] = /^… (\d+) lines \((\d+) characters\)/.exec(markers[0]!.line)!;
    // Kept and dropped make what the task printed (its ~3 million lines, "the end" and the runtime's own few).
    expect(Number(dropped) + stored.lines).toBeGreaterThan(PRINTED_MIB * 10486);
    expect(Number(droppedChars)).toBeGreaterThan((PRINTED_MIB - 3) * MIB * 0.99); // newlines are not characters of a line

    const peak = peakRss(worker.child.pid!);
    expect(peak - before, `the worker's peak memory grew from ${before} to ${peak} bytes`).toBeLessThan((PRINTED_MIB * MIB) / 4);
    expect(peak).toBeLessThan(PRINTED_MIB * MIB);
  }, 180_000);
});

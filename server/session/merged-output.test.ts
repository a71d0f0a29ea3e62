/**
 * The shared output listener: every action gets its own channel even when many start at once,
 * and a connection that does not present a pending token never reaches an action.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createConnection } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { outputListenerPath } from "./merged-output";
import { startProcess } from "./subprocess";

const dir = mkdtempSync(join(tmpdir(), "loom-merged-output-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runCollecting(script: string): { lines: string[]; done: Promise<string> } {
  const lines: string[] = [];
  const running = startProcess({
    command: "sh",
    args: ["-c", script],
    cwd: dir,
    env: { PATH: "/usr/bin:/bin" },
    timeoutSeconds: 10,
    cancelation: { mode: "TERMINATE", notifyPeriodSeconds: 0 },
    workingDirectory: dir,
    onLine: (line) => void lines.push(line),
  });
  return { lines, done: running.result.then((r) => r.outcome) };
}

describe("the shared output listener", () => {
  it("keeps 40 concurrent actions' output apart, stdout and stderr merged in order", async () => {
    const runs = Array.from({ length: 40 }, (_, i) => runCollecting(`echo out-${i}; echo err-${i} >&2; echo end-${i}`));
    expect(await Promise.all(runs.map((r) => r.done))).toEqual(runs.map(() => "succeeded"));
    runs.forEach((r, i) => expect(r.lines).toEqual([`out-${i}`, `err-${i}`, `end-${i}`]));
  });

  it("drops a stray connection that does not present a pending token", async () => {
    const path = await outputListenerPath();
    const stray = createConnection(path);
    await new Promise<void>((resolve) => stray.once("connect", () => resolve()));
    stray.write(Buffer.alloc(16, 7));
    stray.write("injected line\n");
    const closed = new Promise<void>((resolve) => stray.once("close", () => resolve()));
    const run = runCollecting("echo mine");
    expect(await run.done).toBe("succeeded");
    await closed;
    expect(run.lines).toEqual(["mine"]);
  });
});

/**
 * The real `loom` executable (bin/loom.mjs) in a child process: exit codes end to end, and a
 * reader that closes stdout early (`loom check … | head -1`) ends the run without a stack trace.
 */
import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { BROKEN_JOB, RENDER_JOB, tempTree } from "./cli-test-support";

const LOOM = fileURLToPath(new URL("../../bin/loom.mjs", import.meta.url));

/** A template with one unknown key per step: thousands of error lines, far more than a pipe buffers. */
function manyErrors(steps: number): string {
  let text = "specificationVersion: jobtemplate-2023-09\nname: J\nsteps:\n";
  for (let i = 0; i < steps; i++) text += `- name: S${i}\n  bogus${i}: 1\n  script:\n    actions:\n      onRun:\n        command: echo\n`;
  return text;
}

const tree = tempTree({ "job.yaml": RENDER_JOB, "broken.yaml": BROKEN_JOB, "many.yaml": manyErrors(4000) });
afterAll(tree.remove);

describe("exit codes of `node bin/loom.mjs`", () => {
  it.each([
    [["check", "job.yaml"], 0, /^Template at 'job\.yaml' passes validation checks\.\n$/, /^$/],
    [["check", "broken.yaml"], 1, /^ERROR: 'broken\.yaml' failed checks: 2 errors\n {2}steps\[0\]\.bogus \(5:3\): unknown field 'bogus'\n/, /^$/],
    [["check", "missing.yaml"], 1, /^ERROR: 'missing\.yaml' does not exist\.\n$/, /^$/],
    [["check"], 2, /^$/, /^loom: check takes exactly one FILE\n/],
    [["check", "job.yaml", "--bogus"], 2, /^$/, /^loom: unknown option --bogus\n/],
    [["summary", "job.yaml", "-p", "Frames=1-3"], 0, /^--- Summary for 'Render sh010' ---\n/, /^$/],
  ])("loom %j → %d", (argv, code, stdout, stderr) => {
    const child = spawnSync(process.execPath, [LOOM, ...argv], { cwd: tree.dir, encoding: "utf8", timeout: 30_000 });
    expect({ status: child.status, stdout: child.stdout, stderr: child.stderr }).toEqual({
      status: code,
      stdout: expect.stringMatching(stdout),
      stderr: expect.stringMatching(stderr),
    });
  });
});

describe("stdout closed early", () => {
  it("`loom check many.yaml | head -1` exits 0 or 1 without an EPIPE stack trace", async () => {
    const child = spawn(process.execPath, [LOOM, "check", "many.yaml"], { cwd: tree.dir, stdio: ["ignore", "pipe", "pipe"] });
    let first = "";
    let stderr = "";
    child.stdout.once("data", (chunk: Buffer) => {
      first = chunk.toString("utf8");
      child.stdout.destroy();
    });
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    const code = await new Promise<number | null>((resolve) => child.on("close", (status) => resolve(status)));
    expect(first).toMatch(/^ERROR: 'many\.yaml' failed checks: 4000 errors\n/);
    expect(stderr).not.toMatch(/EPIPE|Error:|\n {4}at /);
    expect([0, 1]).toContain(code);
  });
});

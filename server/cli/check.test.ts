/** `loom check FILE [--json]` (DESIGN.md "CLI contract"): exit 0 valid, 1 invalid, 2 usage. */
import { symlinkSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { ADJACENCY_DAG, SIM_THEN_RENDER } from "../../lib/openjd/testing";
import { BROKEN_JOB, ENVIRONMENT, RENDER_JOB, runCli, tempTree } from "./cli-test-support";

const tree = tempTree({
  "job.yaml": RENDER_JOB,
  "env.yml": ENVIRONMENT,
  "job.json": JSON.stringify({ specificationVersion: "jobtemplate-2023-09", name: "J", steps: [{ name: "S", script: { actions: { onRun: { command: "echo" } } } }] }),
  "broken.yaml": BROKEN_JOB,
  "syntax.yaml": "a: [1, 2\n",
  "empty.yaml": "",
  "broken.json": '{"specificationVersion": "jobtemplate-2023-09", "name": "J",\n "steps": []}',
  "notes.txt": "specificationVersion: jobtemplate-2023-09\n",
  "folder.yaml/inside.yaml": RENDER_JOB,
  "sim-then-render.yaml": SIM_THEN_RENDER,
  "adjacency-dag.yaml": ADJACENCY_DAG,
});
afterAll(tree.remove);
const file = (name: string) => `${tree.dir}/${name}`;

describe("valid templates", () => {
  it.each(["job.yaml", "env.yml", "job.json", "sim-then-render.yaml", "adjacency-dag.yaml"])("%s → exit 0 and the 'passes validation checks' line", async (name) => {
    const run = await runCli(["check", file(name)], tree.dir);
    expect(run).toMatchObject({ code: 0, lines: [`Template at '${file(name)}' passes validation checks.`], err: "" });
  });

  it("a path relative to the working directory", async () => {
    const run = await runCli(["check", "job.yaml"], tree.dir);
    expect(run).toMatchObject({ code: 0, lines: ["Template at 'job.yaml' passes validation checks."] });
  });

  it("--json", async () => {
    const run = await runCli(["check", "--json", file("env.yml")], tree.dir);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out)).toEqual({ status: "success", file: file("env.yml"), kind: "environment", errors: [] });
  });
});

describe("invalid templates → exit 1, every error as `path (line:col): message`", () => {
  it.each([
    ["broken.yaml", ["steps[0].bogus (5:3): unknown field 'bogus'", "steps[0].script.actions.onRun.command (9:18): "]],
    ["syntax.yaml", ["<document> (2:1): not valid YAML"]],
    ["empty.yaml", ["<document> (1:1): the document is empty"]],
    ["broken.json", ["steps (2:11): "]],
  ])("%s", async (name, expected) => {
    const run = await runCli(["check", file(name)], tree.dir);
    expect(run.code).toBe(1);
    expect(run.lines[0]).toBe(`ERROR: '${file(name)}' failed checks: ${expected.length} error${expected.length === 1 ? "" : "s"}`);
    expect(run.lines.slice(1)).toHaveLength(expected.length);
    run.lines.slice(1).forEach((line, i) => {
      expect(line).toMatch(/^ {2}\S+ \(\d+:\d+\): \S/);
      expect(line.startsWith(`  ${expected[i]}`)).toBe(true);
    });
  });

  it("--json lists each error with path, line, column and message", async () => {
    const run = await runCli(["check", file("broken.yaml"), "--json"], tree.dir);
    expect(run.code).toBe(1);
    expect(JSON.parse(run.out)).toEqual({
      status: "error",
      file: file("broken.yaml"),
      kind: null,
      errors: [
        { path: "steps[0].bogus", line: 5, column: 3, message: "unknown field 'bogus'" },
        { path: "steps[0].script.actions.onRun.command", line: 9, column: 18, message: expect.stringContaining("Param.Nope") },
      ],
    });
  });
});

describe("files that cannot be checked → exit 1 with a clear message", () => {
  it.each([
    ["missing.yaml", "does not exist."],
    ["folder.yaml", "is not a file."],
    ["notes.txt", "is not JSON or YAML (expected a .json, .yaml or .yml file)."],
  ])("%s", async (name, message) => {
    const run = await runCli(["check", file(name)], tree.dir);
    expect(run).toMatchObject({ code: 1, lines: [`ERROR: '${file(name)}' ${message}`] });
    const asJson = await runCli(["check", file(name), "--json"], tree.dir);
    expect(asJson.code).toBe(1);
    expect(JSON.parse(asJson.out)).toEqual({ status: "error", file: file(name), errors: [{ path: "", line: null, column: null, message: `'${file(name)}' ${message}` }] });
  });
});

// /proc/self/mem stats as a regular file but every read fails with EIO: a file that exists and
// still cannot be read must give a message, not a stack trace.
it.runIf(process.platform === "linux")("a file that cannot be read → exit 1 with a clear message", async () => {
  symlinkSync("/proc/self/mem", file("unreadable.yaml"));
  expect(await runCli(["check", "unreadable.yaml"], tree.dir)).toMatchObject({ code: 1, lines: ["ERROR: 'unreadable.yaml' could not be read: EIO."] });
});

describe("usage errors → exit 2 on stderr", () => {
  it.each([
    [["check"], "check takes exactly one FILE"],
    [["check", "a.yaml", "b.yaml"], "check takes exactly one FILE"],
    [["check", "job.yaml", "--bogus"], "unknown option --bogus"],
    [["check", "job.yaml", "--json=yes"], "--json does not take a value"],
    [["chek", "job.yaml"], "unknown command 'chek'"],
  ])("%j", async (argv, message) => {
    const run = await runCli(argv, tree.dir);
    expect(run).toMatchObject({ code: 2, out: "" });
    expect(run.err.split("\n")).toEqual([`loom: ${message}`, "Run 'loom help' for usage."]);
  });

  it("no verb prints help and exits 2; help exits 0", async () => {
    expect(await runCli([], tree.dir)).toMatchObject({ code: 2, out: expect.stringMatching(/loom check FILE \[--json\]\n[^]*loom login [^]*loom user add NAME --role ROLE/) });
    expect(await runCli(["help"], tree.dir)).toMatchObject({ code: 0, out: expect.stringContaining("Exit codes: 0 success, 1 failure, 2 usage error (130: canceled at a prompt).") });
  });
});

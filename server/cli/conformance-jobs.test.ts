/**
 * `loom conformance` on job tests (`jobs/*.test.yaml`): each job runs for real (/bin/sh tasks)
 * and its log is checked against `expected` — output substrings and `anyOf`, forbidden strings,
 * the `_posix` variants, `taskFailure` with and without `exitCode`, `.invalid` meaning "the run
 * must fail", and `runOn`.
 */
import { afterAll, describe, expect, it } from "vitest";
import { runCli, tempTree } from "./cli-test-support";

const indent = (text: string, by: string) => text.replace(/^(?=.)/gm, by).trimEnd();
const shJob = (name: string, script: string) => `specificationVersion: jobtemplate-2023-09
name: "${name}"
steps:
- name: S
  script:
    actions:
      onRun:
        command: /bin/sh
        args: ["-c", ${JSON.stringify(script)}]
`;
/** A job test: `template:` holding the job, then the rest of the case (YAML at column 0). */
const jobTest = (template: string, rest = "") => `template:\n${indent(template, "  ")}\n${rest}`;
const hello = (name: string, rest: string) => jobTest(shJob(name, "echo HELLO_OUT"), rest);
const exit3 = (name: string, rest: string) => jobTest(shJob(name, "echo ABOUT_TO_FAIL; exit 3"), rest);
const ENV = `specificationVersion: environment-2023-09
environment:
  name: Outer
  script:
    actions:
      onEnter:
        command: /bin/sh
        args: ["-c", "echo OUTER_ENTERED"]
      onExit:
        command: /bin/sh
        args: ["-c", "echo OUTER_EXITED"]
`;

const CASES: Record<string, string> = {
  "output-pass.test.yaml": hello("OutputPass", "expected:\n  output: [HELLO_OUT]\n  forbidden: [NEVER_PRINTED]\n"),
  "output-miss.test.yaml": hello("OutputMiss", "expected:\n  output: [HELLO_OUT, NOT_THERE]\n"),
  "anyof-pass.test.yaml": hello("AnyOf", "expected:\n  output:\n  - anyOf: [NOPE, HELLO_OUT]\n"),
  "anyof-miss.test.yaml": hello("AnyOfMiss", "expected:\n  output:\n  - anyOf: [NOPE_1, NOPE_2]\n"),
  "forbidden-appears.test.yaml": hello("Forbidden", "expected:\n  forbidden: [HELLO_OUT]\n"),
  "posix-variants.test.yaml": hello("Posix", "expected:\n  output_posix: [HELLO_OUT]\n  output_windows: [ONLY_ON_WINDOWS]\n  forbidden_windows: [HELLO_OUT]\n"),
  "posix-output-miss.test.yaml": hello("PosixMiss", "expected:\n  output_posix: [POSIX_MISSING]\n"),
  "posix-forbidden.test.yaml": hello("PosixForbidden", "expected:\n  forbidden_posix: [HELLO_OUT]\n"),
  "task-failure-match.test.yaml": exit3("FailMatch", "expected:\n  output: [ABOUT_TO_FAIL]\n  taskFailure:\n    exitCode: 3\n"),
  "task-failure-mismatch.test.yaml": exit3("FailMismatch", "expected:\n  taskFailure:\n    exitCode: 4\n"),
  "task-failure-any-code.test.yaml": exit3("FailAny", "expected:\n  taskFailure: {}\n"),
  "task-failure-but-succeeds.test.yaml": hello("NoFailure", "expected:\n  taskFailure: {}\n"),
  "unexpected-failure.test.yaml": exit3("Unexpected", "expected:\n  output: [ABOUT_TO_FAIL]\n"),
  "run-fails.invalid.test.yaml": exit3("MustFail", ""),
  "run-succeeds.invalid.test.yaml": hello("MustFailButSucceeds", ""),
  "windows-only.test.yaml": hello("WindowsOnly", "runOn: [windows]\nexpected:\n  output: [HELLO_OUT]\n"),
  "posix-only.test.yaml": hello("PosixOnly", "runOn: [posix]\nexpected:\n  output: [HELLO_OUT]\n"),
  "job-name.test.yaml": jobTest(
    shJob("Shot {{Param.Shot}}", "echo HELLO_OUT").replace("steps:", "parameterDefinitions:\n- name: Shot\n  type: STRING\nsteps:"),
    "parameters:\n  Shot: sh010\nexpected:\n  output: [\"Running job 'Shot sh010'\"]\n",
  ),
  "environments.test.yaml": hello("WithEnv", `environments:\n- ${indent(ENV, "  ").trimStart()}\nexpected:\n  output: [OUTER_ENTERED, HELLO_OUT, OUTER_EXITED]\n`),
};

const tree = tempTree(Object.fromEntries(Object.entries(CASES).map(([name, text]) => [`suite/jobs/${name}`, text])));
afterAll(tree.remove);
const conformance = (...argv: string[]) => runCli(["conformance", "suite", ...argv], tree.dir);

type Case = { path: string; kind: string; status: string; reason: string };
let report: { totals: Record<string, number>; cases: Case[] } | undefined;
async function byName(): Promise<Record<string, Case>> {
  report ??= JSON.parse((await conformance("--json")).out) as { totals: Record<string, number>; cases: Case[] };
  return Object.fromEntries(report.cases.map((c) => [c.path.replace("suite/jobs/", ""), c]));
}

describe("job tests → passed", () => {
  it.each([
    ["output-pass.test.yaml", "ran: succeeded, 1 task(s)"],
    ["anyof-pass.test.yaml", "ran: succeeded, 1 task(s)"],
    ["posix-variants.test.yaml", "ran: succeeded, 1 task(s)"],
    ["task-failure-match.test.yaml", "ran: failed, 0 task(s)"],
    ["task-failure-any-code.test.yaml", "ran: failed, 0 task(s)"],
    ["run-fails.invalid.test.yaml", "ran: failed, 0 task(s)"],
    ["posix-only.test.yaml", "ran: succeeded, 1 task(s)"],
    ["job-name.test.yaml", "ran: succeeded, 1 task(s)"],
    ["environments.test.yaml", "ran: succeeded, 1 task(s)"],
  ])("%s", async (name, reason) => {
    expect((await byName())[name]).toMatchObject({ kind: "job", status: "passed", reason });
  });
});

describe("job tests → failed, saying why", () => {
  it.each([
    ["output-miss.test.yaml", 'missing output "NOT_THERE"'],
    ["anyof-miss.test.yaml", 'missing output ["NOPE_1","NOPE_2"]'],
    ["forbidden-appears.test.yaml", 'forbidden output "HELLO_OUT" appeared'],
    ["posix-output-miss.test.yaml", 'missing output "POSIX_MISSING"'],
    ["posix-forbidden.test.yaml", 'forbidden output "HELLO_OUT" appeared'],
    ["task-failure-mismatch.test.yaml", "expected the first failure to exit with 4, got 3"],
    ["task-failure-but-succeeds.test.yaml", "expected a task failure, but the run succeeded"],
    ["unexpected-failure.test.yaml", "the run ended FAILED"],
    ["run-succeeds.invalid.test.yaml", "expected the run to fail, but it succeeded"],
  ])("%s: %s", async (name, problem) => {
    const result = (await byName())[name];
    expect(result?.status).toBe("failed");
    expect(result?.reason.split("\n")[0]).toBe(problem);
    expect(result?.reason).toContain("\n--- log ---\nRunning job '");
  });

  it("only the missing items are named, not the ones found", async () => {
    expect((await byName())["output-miss.test.yaml"]?.reason).not.toContain('HELLO_OUT"');
  });
});

it("runOn: [windows] is skipped on POSIX", async () => {
  expect((await byName())["windows-only.test.yaml"]).toMatchObject({ status: "skipped", reason: "runs on windows only" });
});

it("the totals count every case", async () => {
  await byName();
  expect(report?.totals).toEqual({ passed: 9, failed: 9, skipped: 1 });
  expect(report?.cases).toHaveLength(Object.keys(CASES).length);
});

describe("the text report", () => {
  it("a FAIL line names the missing string, then the log excerpt starting with the resolved job name", async () => {
    const run = await conformance("--filter", "jobs/output-miss");
    expect(run.code).toBe(1);
    expect(run.lines).toEqual([
      'FAIL suite/jobs/output-miss.test.yaml: missing output "NOT_THERE"',
      "--- log ---",
      "Running job 'OutputMiss'",
      "Parameter values: (none)",
      expect.stringMatching(/^Command started as pid: \d+$/),
      "HELLO_OUT",
      "Process exited with code 0",
      "0 passed, 1 failed, 0 skipped",
    ]);
  });

  it("the log excerpt shows the failing task's output and exit code", async () => {
    const run = await conformance("--filter", "task-failure-mismatch");
    expect(run.lines[0]).toBe("FAIL suite/jobs/task-failure-mismatch.test.yaml: expected the first failure to exit with 4, got 3");
    expect(run.lines).toEqual(expect.arrayContaining(["Running job 'FailMismatch'", "ABOUT_TO_FAIL", "Process exited with code 3"]));
  });

  it("passing cases only → exit 0 and the totals line", async () => {
    const run = await conformance("--filter", "-pass.");
    expect(run).toMatchObject({ code: 0, lines: ["2 passed, 0 failed, 0 skipped"] });
  });
});

describe("TASK_DEPENDENCIES: the job runs in the order loom run uses", () => {
  const record = (text: string) => `command: /bin/sh\n        args: ["-c", "printf '%s ' ${text} >> '{{Session.WorkingDirectory}}/ran'"]`;
  const template = `specificationVersion: jobtemplate-2023-09
extensions: [TASK_DEPENDENCIES, EXPR]
name: Backwards
steps:
- name: Frames
  parameterSpace:
    taskParameterDefinitions:
    - {name: Frame, type: INT, range: "1-3"}
  dependencies:
  - dependsOn: Frames
    dependsOnSubspace:
    - {name: Frame, range: ["{{Task.Param.Frame + 1}}"]}
  script:
    actions:
      onRun:
        ${record("{{Task.Param.Frame}}")}
- name: Print
  dependencies:
  - dependsOn: Frames
  script:
    actions:
      onRun:
        command: /bin/sh
        args: ["-c", "echo ORDER=$(cat '{{Session.WorkingDirectory}}/ran')"]
`;
  const ordered = tempTree({ "suite/jobs/backwards.test.yaml": jobTest(template, "expected:\n  output: ['ORDER=3 2 1']\n") });
  afterAll(ordered.remove);

  it("a step waiting for its own later frames runs them last to first", async () => {
    const run = await runCli(["conformance", "suite", "--json"], ordered.dir);
    expect(JSON.parse(run.out).cases[0]).toMatchObject({ status: "passed", reason: "ran: succeeded, 4 task(s)" });
  });
});

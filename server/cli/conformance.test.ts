/**
 * `loom conformance DIR… [--json] [--filter S]` on a tiny suite in the public suite's layout:
 * totals, the last line `N passed, M failed, K skipped`, exit 1 iff a counted case failed,
 * `proposed/` reported apart.
 */
import { afterAll, describe, expect, it } from "vitest";
import { runCli, tempTree } from "./cli-test-support";

const STEPS = "steps:\n- name: S\n  script:\n    actions:\n      onRun:\n        command: echo\n";
const JOB = `specificationVersion: jobtemplate-2023-09\nname: J\n${STEPS}`;
const indent = (text: string) => text.replace(/^/gm, "  ").trimEnd();
const jobTest = (template: string, rest = "") => `template:\n${indent(template)}\n${rest}`;
const INT_JOB = `specificationVersion: jobtemplate-2023-09\nname: J\nparameterDefinitions:\n- name: N\n  type: INT\n${STEPS}`;
const ECHO_N = `${INT_JOB}        args: ['N={{Param.N}}']\n`;

const tree = tempTree({
  "suite/job_templates/1--valid.yaml": JOB,
  "suite/job_templates/1--valid.json": JSON.stringify({ specificationVersion: "jobtemplate-2023-09", name: "J", steps: [{ name: "S", script: { actions: { onRun: { command: "x" } } } }] }),
  "suite/job_templates/1--unknown-key.invalid.yaml": `${JOB}bogus: 1\n`,
  "suite/job_templates/1--marked-invalid-but-valid.invalid.yaml": JOB,
  // WRAP_ACTIONS is supported, and needs EXPR beside it (RFC 0008).
  "suite/job_templates/2--wrap-without-expr.invalid.yaml": `specificationVersion: jobtemplate-2023-09\nextensions: [WRAP_ACTIONS]\nname: J\n${STEPS}`,
  "suite/env_templates/1--env.yaml": "specificationVersion: environment-2023-09\nenvironment:\n  name: E\n  variables:\n    A: '1'\n",
  "suite/env_templates/1--no-environment.invalid.yaml": "specificationVersion: environment-2023-09\n",
  "suite/jobs/1--created.test.yaml": jobTest(ECHO_N, "parameters:\n  N: 5\nexpected:\n  output: ['N=5']\n"),
  "suite/jobs/1--not-an-int.invalid.test.yaml": jobTest(INT_JOB, "parameters:\n  N: five\n"),
  "suite/jobs/1--windows-only.test.yaml": jobTest(JOB, "runOn: [windows]\n"),
  "suite/jobs/1--creation-fails.test.yaml": jobTest(INT_JOB),
  "suite/jobs/1--env-default-outside-merged-range.invalid.test.yaml": jobTest(
    INT_JOB.replace("type: INT\n", "type: INT\n  minValue: 10\n"),
    "environments:\n- specificationVersion: environment-2023-09\n  parameterDefinitions:\n  - name: N\n    type: INT\n    default: 5\n  environment:\n    name: E\n    variables:\n      N: '{{Param.N}}'\n",
  ),
  "suite/jobs/not-a-test.yaml": JOB,
  "suite/jobs/proposed/9--agreed-later.invalid.test.yaml": jobTest(INT_JOB, "parameters:\n  N: 1.5\n"),
  "suite/jobs/proposed/9--fails-today.test.yaml": jobTest(INT_JOB, "parameters:\n  N: x\n"),
  "suite/README.md": "# not a case\n",
});
afterAll(tree.remove);
const conformance = (...argv: string[]) => runCli(["conformance", ...argv], tree.dir);

describe("the text report", () => {
  it("prints each failure, the skip reasons, the proposed line, then the totals; exit 1", async () => {
    const run = await conformance("suite");
    expect(run.code).toBe(1);
    expect(run.lines.filter((l) => l.startsWith("FAIL "))).toEqual([
      expect.stringMatching(/^FAIL suite\/job_templates\/1--marked-invalid-but-valid\.invalid\.yaml: expected the template to be rejected/),
      expect.stringMatching(/^FAIL suite\/jobs\/1--creation-fails\.test\.yaml: job creation failed: parameters: values are missing for required parameters: N$/),
    ]);
    expect(run.lines).toEqual(
      expect.arrayContaining([
        "Skipped:",
        "  1 × runs on windows only",
        "Proposed cases (upstream has not agreed on them; not counted): 1 passed, 1 failed, 0 skipped",
        expect.stringMatching(/^ {2}failed suite\/jobs\/proposed\/9--fails-today\.test\.yaml: /),
      ]),
    );
    expect(run.lines.at(-1)).toBe("9 passed, 2 failed, 1 skipped");
  });

  it.each([
    [["--filter", "env_templates"], "2 passed, 0 failed, 0 skipped", 0],
    [["--filter", "1--valid"], "2 passed, 0 failed, 0 skipped", 0],
    [["--filter", "creation-fails"], "0 passed, 1 failed, 0 skipped", 1],
    [["--filter", "windows"], "0 passed, 0 failed, 1 skipped", 0],
    [["--filter", "nothing-matches"], "0 passed, 0 failed, 0 skipped", 0],
  ])("%j → %s", async (argv, last, code) => {
    const run = await conformance("suite", ...argv);
    expect(run.lines.at(-1)).toBe(last);
    expect(run.code).toBe(code);
  });

  it("proposed cases never fail the run", async () => {
    const run = await conformance("suite/jobs/proposed");
    expect(run.code).toBe(0);
    expect(run.lines.at(-1)).toBe("0 passed, 0 failed, 0 skipped");
  });

  it("several directories (and a single file) are walked once each", async () => {
    const run = await conformance("suite/env_templates", "suite/jobs/1--not-an-int.invalid.test.yaml", "suite/env_templates");
    expect(run).toMatchObject({ code: 0 });
    expect(run.lines.at(-1)).toBe("3 passed, 0 failed, 0 skipped");
  });

  it("--verbose lists passing and skipped cases too", async () => {
    const run = await conformance("suite", "--filter", "jobs/1--", "--verbose");
    expect(run.lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^ok {3}suite\/jobs\/1--not-an-int\.invalid\.test\.yaml: rejected at job creation: parameters\.N: /),
        "skip suite/jobs/1--windows-only.test.yaml: runs on windows only",
      ]),
    );
  });
});

describe("--json", () => {
  it("totals, proposed totals and every case", async () => {
    const run = await conformance("suite", "--json");
    expect(run.code).toBe(1);
    const report = JSON.parse(run.out);
    expect(report.totals).toEqual({ passed: 9, failed: 2, skipped: 1 });
    expect(report.proposed).toEqual({ passed: 1, failed: 1, skipped: 0 });
    expect(report.cases).toHaveLength(14);
    const byPath = Object.fromEntries(report.cases.map((c: { path: string }) => [c.path, c]));
    expect(byPath["suite/job_templates/1--unknown-key.invalid.yaml"]).toMatchObject({ kind: "job-template", proposed: false, status: "passed", reason: expect.stringContaining("bogus") });
    expect(byPath["suite/env_templates/1--env.yaml"]).toMatchObject({ kind: "environment-template", status: "passed", reason: "valid" });
    expect(byPath["suite/jobs/1--windows-only.test.yaml"]).toMatchObject({ kind: "job", status: "skipped", reason: "runs on windows only" });
    expect(byPath["suite/jobs/proposed/9--agreed-later.invalid.test.yaml"]).toMatchObject({ proposed: true, status: "passed" });
    // The default is written in the environment template (line 19 of the case file) and is
    // checked against the job template's minValue: the error is placed where the default is.
    expect(byPath["suite/jobs/1--env-default-outside-merged-range.invalid.test.yaml"]).toMatchObject({
      status: "passed",
      reason: expect.stringMatching(/^rejected at job creation: environments\[0\]\.parameterDefinitions\[0\]\.default \(19:14\): default of N: 5 is below the minimum 10/),
    });
    expect(byPath["suite/jobs/not-a-test.yaml"]).toBeUndefined();
    expect(byPath["suite/README.md"]).toBeUndefined();
  });

  it("exit 0 when nothing counted failed", async () => {
    const run = await conformance("suite", "--json", "--filter", "1--valid");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out).totals).toEqual({ passed: 2, failed: 0, skipped: 0 });
  });
});

describe("usage errors → exit 2", () => {
  it.each([
    [[], "conformance needs at least one DIR"],
    [["no-such-dir"], "'no-such-dir' does not exist"],
    [["suite", "--filter"], "--filter needs a value"],
    [["suite", "--bogus"], "unknown option --bogus"],
  ])("%j", async (argv, message) => {
    const run = await conformance(...argv);
    expect(run.code).toBe(2);
    expect(run.err.split("\n")[0]).toBe(`loom: ${message}`);
  });
});

describe("an .invalid job test refused before it ran: expected output is checked against the error text", () => {
  const refusals = tempTree({
    "suite/jobs/names-the-parameter.invalid.test.yaml": jobTest(INT_JOB, "parameters:\n  N: five\nexpected:\n  output: ['parameters.N']\n  forbidden: ['NodeIndex']\n"),
    "suite/jobs/names-the-field.invalid.test.yaml": jobTest(`${JOB}bogus: 1\n`, "expected:\n  output: [{anyOf: ['nothing', 'bogus']}]\n"),
    "suite/jobs/misses-a-name.invalid.test.yaml": jobTest(INT_JOB, "parameters:\n  N: five\nexpected:\n  output: ['NodeIndex=1']\n"),
    "suite/jobs/forbidden-name.invalid.test.yaml": jobTest(INT_JOB, "parameters:\n  N: five\nexpected:\n  forbidden: ['parameters.N']\n"),
  });
  afterAll(refusals.remove);

  it("passes when the error text has every output and no forbidden string, fails otherwise with the reason", async () => {
    const run = await runCli(["conformance", "suite", "--json"], refusals.dir);
    const byName = Object.fromEntries(JSON.parse(run.out).cases.map((c: { path: string }) => [c.path.split("/").at(-1), c]));
    expect(byName["names-the-parameter.invalid.test.yaml"]).toMatchObject({ status: "passed", reason: expect.stringMatching(/^rejected at job creation: parameters\.N/) });
    expect(byName["names-the-field.invalid.test.yaml"]).toMatchObject({ status: "passed", reason: expect.stringMatching(/^rejected at validation: .*bogus/) });
    expect(byName["misses-a-name.invalid.test.yaml"]).toMatchObject({
      status: "failed",
      reason: expect.stringMatching(/^rejected at job creation, but the error text does not match: missing output "NodeIndex=1"; errors: parameters\.N/),
    });
    expect(byName["forbidden-name.invalid.test.yaml"]).toMatchObject({ status: "failed", reason: expect.stringContaining('forbidden output "parameters.N" appeared') });
    expect(run.code).toBe(1);
  });
});

/**
 * `loom run` selection and input flags: -p (KEY=VALUE, file://, inline JSON), --step,
 * --run-dependencies, -tp, --tasks, --maximum-tasks, --environment and --path-mapping-rules,
 * each checked against what real /bin/sh tasks printed.
 */
import { afterAll, describe, expect, it } from "vitest";
import { runCli, sh, tempTree } from "./cli-test-support";

const JOB = `specificationVersion: jobtemplate-2023-09
name: "Demo {{Param.Who}}"
parameterDefinitions:
- name: Who
  type: STRING
  default: world
jobEnvironments:
- name: JobEnv
  script:
    actions:
      onEnter:
        ${sh("echo ENTER_JOBENV")}
      onExit:
        ${sh("echo EXIT_JOBENV")}
steps:
- name: Prep
  script:
    actions:
      onRun:
        ${sh("echo PREP_RAN")}
- name: Render
  dependencies:
  - dependsOn: Prep
  parameterSpace:
    taskParameterDefinitions:
    - name: Frame
      type: INT
      range: "1-5"
  script:
    actions:
      onRun:
        ${sh("echo FRAME={{Task.Param.Frame}} WHO={{Param.Who}}")}
`;
const ENV = `specificationVersion: environment-2023-09
environment:
  name: ExtEnv
  script:
    actions:
      onEnter:
        ${sh("echo ENTER_EXT")}
      onExit:
        ${sh("echo EXIT_EXT")}
`;
const MAPPED = `specificationVersion: jobtemplate-2023-09
name: Mapped
parameterDefinitions:
- name: In
  type: PATH
steps:
- name: S
  script:
    actions:
      onRun:
        ${sh('echo MAPPED={{Param.In}}; echo RULES=$(cat "{{Session.PathMappingRulesFile}}")')}
`;
const RULES = { version: "pathmapping-1.0", path_mapping_rules: [{ source_path_format: "POSIX", source_path: "/mnt/src", destination_path: "/local/dst" }] };

const tree = tempTree({
  "job.yaml": JOB,
  "env.yaml": ENV,
  "mapped.yaml": MAPPED,
  "params.json": JSON.stringify({ Who: "filey" }),
  "params.yaml": "Who: yamly\n",
  "tasks.json": JSON.stringify([{ Frame: 4 }, { Frame: "5" }]),
  "rules.json": JSON.stringify(RULES),
  "bad-env.yaml": "specificationVersion: environment-2023-09\nenvironment:\n  name: E\n  variables:\n    A: '1'\n  bogus: 1\n",
});
afterAll(tree.remove);
const run = (...argv: string[]) => runCli(["run", ...argv], tree.dir);
/** The task and environment output lines, in the order they were printed. */
const markers = (out: string) => out.match(/\b(?:ENTER_\w+|EXIT_\w+|PREP_RAN|FRAME=\d+ WHO=\w+)\b/g) ?? [];
const frames = (out: string) => (out.match(/FRAME=\d+/g) ?? []).map((f) => Number(f.slice(6)));

describe("-p job parameters", () => {
  it.each([
    [["-p", "Who=bob"], "bob"],
    [["-p", "file://params.json"], "filey"],
    [["-p", "file://params.yaml"], "yamly"],
    [["-p", '{"Who": "jsony"}'], "jsony"],
    [["-p", "Who=first", "-p", "Who=last"], "last"],
    [["-p", "file://params.json", "-p", "Who=override"], "override"],
  ])("%j → Who=%s in the job name and in the tasks", async (argv, who) => {
    const result = await run("job.yaml", "--step", "Render", "-tp", "Frame=1", ...argv);
    expect(result.code).toBe(0);
    expect(result.lines[0]).toBe(`Running job 'Demo ${who}'`);
    expect(markers(result.out)).toContain(`FRAME=1 WHO=${who}`);
  });

  it("a missing parameters file → exit 2 naming it", async () => {
    const result = await run("job.yaml", "-p", "file://nothere.json");
    expect(result.code).toBe(2);
    expect(result.err).toContain("'nothere.json' does not exist");
  });
});

describe("step selection", () => {
  it("no --step runs every step in dependency order inside the job environment", async () => {
    const result = await run("job.yaml");
    expect(markers(result.out)).toEqual(["ENTER_JOBENV", "PREP_RAN", ...[1, 2, 3, 4, 5].map((f) => `FRAME=${f} WHO=world`), "EXIT_JOBENV"]);
  });

  it("--step S runs only that step", async () => {
    const result = await run("job.yaml", "--step", "Render");
    expect(result.code).toBe(0);
    expect(markers(result.out)).toEqual(["ENTER_JOBENV", ...[1, 2, 3, 4, 5].map((f) => `FRAME=${f} WHO=world`), "EXIT_JOBENV"]);
    expect(result.lines).toEqual(expect.arrayContaining(["Step: Render", "Tasks run: 5"]));
  });

  it("--run-dependencies runs the dependencies first", async () => {
    const result = await run("job.yaml", "--step", "Render", "--run-dependencies");
    expect(result.code).toBe(0);
    expect(markers(result.out)).toEqual(["ENTER_JOBENV", "PREP_RAN", ...[1, 2, 3, 4, 5].map((f) => `FRAME=${f} WHO=world`), "EXIT_JOBENV"]);
    expect(result.lines).toContain("Tasks run: 6");
  });

  it("--run-dependencies with --maximum-tasks limits only the selected step", async () => {
    const result = await run("job.yaml", "--step", "Render", "--run-dependencies", "--maximum-tasks", "1");
    expect(markers(result.out)).toEqual(["ENTER_JOBENV", "PREP_RAN", "FRAME=1 WHO=world", "EXIT_JOBENV"]);
  });
});

describe("task selection", () => {
  it("-tp Frame=3 runs exactly that task", async () => {
    const result = await run("job.yaml", "--step", "Render", "-tp", "Frame=3");
    expect(result.code).toBe(0);
    expect(frames(result.out)).toEqual([3]);
    expect(result.out).toContain("Parameter values: Frame(INT) = 3");
    expect(result.lines).toContain("Tasks run: 1");
  });

  it.each([
    [["-tp", "Frame=9"], "ERROR: the -tp values: step 'Render' has no task Frame=9"],
    [["-tp", "Frame=x"], "ERROR: the -tp values: step 'Render' has no task Frame=x"],
    [["-tp", "Eye=left"], "ERROR: the -tp values: step 'Render' has no task parameter 'Eye' (it has Frame)"],
    [["-tp", "Frame"], "ERROR: task parameter 'Frame' is not NAME=VALUE"],
    [["--tasks", '[{"Frame":7}]'], "ERROR: --tasks[0]: step 'Render' has no task Frame=7"],
    [["--tasks", '[{"Frame":1},{}]'], "ERROR: --tasks[1]: missing task parameter(s) Frame"],
    [["--tasks", '{"Frame":1}'], "ERROR: --tasks must be a JSON list of objects mapping task parameter names to values"],
    [["--tasks", "[1]"], "ERROR: --tasks[0] is not an object"],
    [["--tasks", "file://nothere.json"], "ERROR: tasks file 'nothere.json' could not be read"],
  ])("%j outside the step's tasks → exit 1, one clear line, nothing run", async (argv, message) => {
    const result = await run("job.yaml", "--step", "Render", ...argv);
    expect(result).toMatchObject({ code: 1, lines: [message] });
  });

  it("--tasks with a JSON list runs exactly those tasks, in that order", async () => {
    const result = await run("job.yaml", "--step", "Render", "--tasks", '[{"Frame":2},{"Frame":1}]');
    expect(result.code).toBe(0);
    expect(frames(result.out)).toEqual([2, 1]);
    expect(result.lines).toContain("Tasks run: 2");
  });

  it("--tasks file://PATH reads the list from a file (numbers or strings)", async () => {
    const result = await run("job.yaml", "--step", "Render", "--tasks", "file://tasks.json");
    expect(result.code).toBe(0);
    expect(frames(result.out)).toEqual([4, 5]);
  });

  it("--maximum-tasks 2 runs the first two tasks", async () => {
    const result = await run("job.yaml", "--step", "Render", "--maximum-tasks", "2");
    expect(result.code).toBe(0);
    expect(frames(result.out)).toEqual([1, 2]);
    expect(result.lines).toContain("Tasks run: 2");
  });
});

describe("--environment", () => {
  it("is entered first and exited last, around the job's own environments", async () => {
    const result = await run("job.yaml", "--environment", "env.yaml", "--step", "Prep");
    expect(result.code).toBe(0);
    expect(markers(result.out)).toEqual(["ENTER_EXT", "ENTER_JOBENV", "PREP_RAN", "EXIT_JOBENV", "EXIT_EXT"]);
    const entering = result.lines.filter((l) => l.includes("=== Entering environment"));
    expect(entering.map((l) => l.replace(/^.*=== /, ""))).toEqual(["Entering environment 'ExtEnv'", "Entering environment 'JobEnv'"]);
  });

  it("an environment file with errors → exit 1 with located errors", async () => {
    const result = await run("job.yaml", "--environment", "bad-env.yaml");
    expect(result.code).toBe(1);
    expect(result.lines[0]).toBe("ERROR: 'bad-env.yaml' failed checks: 1 error(s)");
    expect(result.lines.slice(1)).toEqual(["  environment.bogus (6:3): unknown field 'bogus'"]);
  });

  it("a job template given as --environment → exit 1", async () => {
    const result = await run("job.yaml", "--environment", "job.yaml");
    expect(result.code).toBe(1);
    expect(result.lines[0]).toBe("ERROR: 'job.yaml' failed checks: 1 error(s)");
  });
});

describe("--path-mapping-rules", () => {
  const mappedRun = (rules: string) => run("mapped.yaml", "-p", "In=/mnt/src/scene.blend", "--path-mapping-rules", rules);

  it.each([
    ["inline JSON", JSON.stringify(RULES)],
    ["a file", "rules.json"],
    ["file://", "file://rules.json"],
  ])("%s: PATH parameters are mapped and the rules file holds the rules", async (_label, rules) => {
    const result = await mappedRun(rules);
    expect(result.code).toBe(0);
    expect(result.out).toContain("MAPPED=/local/dst/scene.blend");
    expect(result.out).toContain(`RULES=${JSON.stringify(RULES)}`);
  });

  it("without rules the path is unchanged and the rules file is {}", async () => {
    const result = await run("mapped.yaml", "-p", "In=/mnt/src/scene.blend");
    expect(result.out).toContain("MAPPED=/mnt/src/scene.blend");
    expect(result.out).toContain("RULES={}");
  });

  it.each([
    ["nothere.json", "ERROR: path mapping rules file 'nothere.json' could not be read"],
    ["{not json", expect.stringMatching(/^ERROR: path mapping rules are not valid JSON: /)],
    ['{"version":"x","path_mapping_rules":[]}', expect.stringMatching(/^ERROR: .*'version'.*pathmapping-1\.0/)],
  ])("%s → exit 1 with a clear message", async (rules, message) => {
    expect(await mappedRun(rules)).toMatchObject({ code: 1, lines: [message] });
  });
});

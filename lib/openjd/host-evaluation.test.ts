import { describe, expect, it } from "vitest";
import { hostEnvironment, resolveAction, resolveFileData, resolveVariables, withLets, type HostInput } from "./host-evaluation";
import { createOk } from "./job/job-test-support";

const TEMPLATE = (extensions: string) => `specificationVersion: jobtemplate-2023-09
${extensions === "[]" ? "" : `extensions: ${extensions}\n`}name: Shot
parameterDefinitions:
- {name: Scene, type: PATH, default: scenes/shot.blend}
- {name: Quality, type: STRING, default: high}
jobEnvironments:
- name: Tools
  variables:
    SCENE: "{{Param.Scene}}"
    RAW: "{{RawParam.Scene}}"
steps:
- name: Render
  parameterSpace:
    taskParameterDefinitions:
    - {name: Frame, type: INT, range: "1-3"}
    - {name: Out, type: PATH, range: ["/mnt/studio/out"]}
  script:
    embeddedFiles:
    - {name: Run, type: TEXT, data: "render {{Task.Param.Frame}}\\n"}
    actions:
      onRun:
        command: "{{Task.File.Run}}"
        args: ["{{Param.Scene}}", "{{Task.Param.Out}}", "{{Task.RawParam.Out}}", "{{Session.HasPathMappingRules}}"]
        cancelation: {mode: NOTIFY_THEN_TERMINATE}
`;

const mapPath = (v: string) => v.replace(/^\/mnt\/studio/, "/local/studio");

function input(extensions = "[]"): HostInput {
  const job = createOk({ template: TEMPLATE(extensions), templateDir: "/mnt/studio/jobs" });
  const step = job.steps[0]!;
  return {
    job,
    step,
    task: step.parameterSpace.at(1),
    session: { workingDirectory: "/tmp/session", pathMappingRulesFile: "/tmp/session/rules.json", hasPathMappingRules: true },
    files: new Map([["Task.File.Run", "/tmp/session/files/run.sh"]]),
    pathFormat: "POSIX",
    mapPath,
  };
}

describe("host evaluation (what the Session runtime resolves)", () => {
  it("maps PATH values for Param and Task.Param, never for RawParam", () => {
    const host = input();
    const action = resolveAction(host.step!.script.actions.onRun, hostEnvironment(host), "onRun");
    expect(action).toEqual({
      command: "/tmp/session/files/run.sh",
      args: ["/local/studio/jobs/scenes/shot.blend", "/local/studio/out", "/mnt/studio/out", "true"],
      timeout: null,
      cancelation: { mode: "NOTIFY_THEN_TERMINATE", notifyPeriodInSeconds: 120 },
    });
  });

  it("resolves environment variables and embedded file data", () => {
    const host = input();
    const env = hostEnvironment(host);
    expect(resolveVariables(host.job.jobEnvironments[0]!, env)).toEqual([
      { name: "SCENE", value: "/local/studio/jobs/scenes/shot.blend" },
      { name: "RAW", value: "/mnt/studio/jobs/scenes/shot.blend" },
    ]);
    expect(resolveFileData(host.step!.script.embeddedFiles[0]!, env, "\r\n")).toBe("render 2\n");
  });

  it("gives an exit action the 300 s default timeout and env actions a 30 s notify period", () => {
    const host = input();
    const env = hostEnvironment(host);
    const action = { command: { raw: "true", segments: [{ kind: "literal" as const, text: "true" }] }, cancelation: { mode: "NOTIFY_THEN_TERMINATE" as const }, path: [] };
    expect(resolveAction(action, env, "onExit")).toMatchObject({ timeout: 300, cancelation: { notifyPeriodInSeconds: 30 } });
    expect(resolveAction(action, env, "onEnter")).toMatchObject({ timeout: null, cancelation: { notifyPeriodInSeconds: 30 } });
  });
});

describe("host evaluation with EXPR", () => {
  const template = `specificationVersion: jobtemplate-2023-09
extensions: [EXPR, TASK_CHUNKING]
name: Shot
parameterDefinitions:
- {name: Scene, type: PATH, default: scenes/shot.blend}
- {name: Extra, type: "LIST[STRING]", default: ["-v", "-x"]}
steps:
- name: Render
  let: ["stem = RawParam.Scene.upper()"]
  parameterSpace:
    taskParameterDefinitions:
    - name: Frames
      type: "CHUNK[INT]"
      range: "1-10"
      chunks: {defaultTaskCount: 5, rangeConstraint: CONTIGUOUS}
  script:
    let: ["first = min(Task.Param.Frames)", "out = Session.WorkingDirectory / Param.Scene.stem"]
    actions:
      onRun:
        command: render
        args:
        - "{{ Param.Scene.name }}"
        - "{{ Param.Extra }}"
        - "{{ null if first > 1 else '--first-chunk' }}"
        - "{{ out }}_{{ first }}-{{ max(Task.Param.Frames) }}"
        - "{{ apply_path_mapping('/mnt/studio/x') }}"
        - "{{ Step.Name }}/{{ Job.Name }}"
`;

  it("evaluates typed values, script lets, chunks as range expressions, splices and drops args", () => {
    const job = createOk({ template, templateDir: "/mnt/studio/jobs" });
    const step = job.steps[0]!;
    const host: HostInput = {
      job,
      step,
      task: step.parameterSpace.at(0),
      session: { workingDirectory: "/tmp/s", pathMappingRulesFile: "/tmp/s/r.json", hasPathMappingRules: true },
      pathFormat: "POSIX",
      mapPath,
    };
    const env = withLets(hostEnvironment(host), step.script.let);
    expect(resolveAction(step.script.actions.onRun, env, "onRun").args).toEqual(["shot.blend", "-v", "-x", "--first-chunk", "/tmp/s/shot_1-5", "/local/studio/x", "Render/Shot"]);
    const second = withLets(hostEnvironment({ ...host, task: step.parameterSpace.at(1) }), step.script.let);
    expect(resolveAction(step.script.actions.onRun, second, "onRun").args).toContain("/tmp/s/shot_6-10");
    expect(resolveAction(step.script.actions.onRun, second, "onRun").args).not.toContain("--first-chunk");
  });
});

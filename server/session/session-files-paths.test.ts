/**
 * What a Session puts on disk and into format strings (spec digest §8, §12.6, §13.1; reference
 * behaviour §3.8–§3.9): embedded files in the working directory (runnable ones usable as the
 * command), Session.* values, the path-mapping rules file and PATH parameters mapped by the
 * longest matching source on whole components, and TASK_CHUNKING chunks run as one task each.
 */
import { basename, dirname } from "node:path";
import { describe, expect, it } from "vitest";
import type { PathMappingRule } from "../../lib/openjd";
import { buildJob, dedent, py, runSession, showEnv } from "./session-test-support";

/** Prints each argument as a line: give it `NAME={{...}}` arguments. */
const PRINT_ARGS = "import sys\nfor a in sys.argv[1:]: print(a)";

describe("embedded files", () => {
  it("Task.File values are written per task in the Session directory; a runnable one is the command", async () => {
    const frames = [1, 2];
    const job = buildJob(`
      specificationVersion: jobtemplate-2023-09
      name: J
      steps:
      - name: S
        parameterSpace:
          taskParameterDefinitions:
          - name: Frame
            type: INT
            range: [${frames.join(", ")}]
        script:
          embeddedFiles:
          - name: Data
            type: TEXT
            data: "frame {{Task.Param.Frame}} in {{Session.WorkingDirectory}}"
          - name: Run
            type: TEXT
            filename: run.sh
            runnable: true
            data: |
              #!/bin/sh
              echo "run_path=$0"
              echo "data_path=$1"
              echo "data=$(cat "$1")"
              if [ -x "$1" ]; then echo data_exec=yes; else echo data_exec=no; fi
          actions:
            onRun:
              command: "{{Task.File.Run}}"
              args: ["{{Task.File.Data}}"]
    `);
    const run = await runSession(job);
    const wd = run.workingDirectory;
    expect(run.result.status).toBe("SUCCEEDED");
    const printed = run.tasks().map((t) => run.printed(t));
    expect(printed.map((p) => p.data)).toEqual(frames.map((f) => `frame ${f} in ${wd}`));
    for (const p of printed) {
      expect(p.run_path?.startsWith(`${wd}/`)).toBe(true);
      expect(basename(p.run_path as string)).toBe("run.sh");
      expect(p.data_path?.startsWith(`${wd}/`)).toBe(true);
      expect(p.data_exec).toBe("no");
    }
  });

  it("Env.File values are written for the environment's actions; a runnable one runs as onEnter", async () => {
    const job = buildJob(`
      specificationVersion: jobtemplate-2023-09
      name: J
      jobEnvironments:
      - name: E
        variables:
          CACHE: "{{Session.WorkingDirectory}}/cache"
        script:
          embeddedFiles:
          - name: Setup
            type: TEXT
            runnable: true
            data: |
              #!/bin/sh
              echo "setup_path=$0"
              echo "openjd_env: FROM_FILE=set by {{Param.Who}}"
          actions:
            onEnter:
              command: "{{Env.File.Setup}}"
      parameterDefinitions:
      - name: Who
        type: STRING
        default: setup
      steps:
      - name: S
        script:
          actions:
            onRun: ${showEnv("FROM_FILE", "CACHE")}
    `);
    const run = await runSession(job);
    expect(run.summary).toEqual(["ENV_ENTER E SUCCEEDED", "TASK_RUN S SUCCEEDED", "ENV_EXIT E SUCCEEDED"]);
    expect(run.printed(run.action("ENV_ENTER", "E")).setup_path?.startsWith(`${run.workingDirectory}/`)).toBe(true);
    expect(run.printed(run.action("TASK_RUN", "S"))).toEqual({ FROM_FILE: "set by setup", CACHE: `${run.workingDirectory}/cache` });
  });
});

describe("path mapping", () => {
  // Given shortest first: the Session must try the longest source first.
  const rules: PathMappingRule[] = [
    { source_path_format: "POSIX", source_path: "/mnt", destination_path: "/other-mnt" },
    { source_path_format: "POSIX", source_path: "/mnt/projects", destination_path: "/data/projects" },
    { source_path_format: "POSIX", source_path: "/mnt/projects/shots", destination_path: "/fast/shots" },
  ];
  const job = buildJob(
    `
    specificationVersion: jobtemplate-2023-09
    name: J
    parameterDefinitions:
    - name: Deep
      type: PATH
    - name: Near
      type: PATH
    - name: Elsewhere
      type: PATH
    - name: Text
      type: STRING
    jobEnvironments:
    - name: E
      variables:
        DEEP_VAR: "{{Param.Deep}}"
    steps:
    - name: S
      parameterSpace:
        taskParameterDefinitions:
        - name: In
          type: PATH
          range: ["/mnt/projects/plates/p.dpx"]
      script:
        actions:
          onRun: ${py(
            `${PRINT_ARGS}\nimport os\nprint('DEEP_VAR=' + os.environ['DEEP_VAR'])\nprint('rules_json=' + open(sys.argv[-1]).read().replace(chr(10), ' '))`,
            {},
            "Deep={{Param.Deep}}",
            "RawDeep={{RawParam.Deep}}",
            "Near={{Param.Near}}",
            "Elsewhere={{Param.Elsewhere}}",
            "Text={{Param.Text}}",
            "In={{Task.Param.In}}",
            "RawIn={{Task.RawParam.In}}",
            "has_rules={{Session.HasPathMappingRules}}",
            "{{Session.PathMappingRulesFile}}",
          )}
    `,
    { parameters: { Deep: "/mnt/projects/shots/a.exr", Near: "/mnt/projectsX/b.exr", Elsewhere: "/elsewhere/c.exr", Text: "/mnt/projects/d" } },
  );

  it("maps PATH values by the longest matching source on whole components; raw values and STRINGs stay", async () => {
    const run = await runSession(job, { pathMappingRules: rules });
    expect(run.printed(run.action("TASK_RUN", "S"))).toMatchObject({
      Deep: "/fast/shots/a.exr",
      RawDeep: "/mnt/projects/shots/a.exr",
      // /mnt/projects does not match /mnt/projectsX: only /mnt does.
      Near: "/other-mnt/projectsX/b.exr",
      Elsewhere: "/elsewhere/c.exr",
      Text: "/mnt/projects/d",
      In: "/data/projects/plates/p.dpx",
      RawIn: "/mnt/projects/plates/p.dpx",
      DEEP_VAR: "/fast/shots/a.exr",
      has_rules: "true",
    });
  });

  it("writes the rules as pathmapping-1.0 JSON in the working directory, named by Session.PathMappingRulesFile", async () => {
    const run = await runSession(job, { pathMappingRules: rules });
    const task = run.action("TASK_RUN", "S");
    const file = task.logs.find((l) => l.startsWith(`${run.workingDirectory}/`));
    expect(file && dirname(file)).toBe(run.workingDirectory);
    const document = JSON.parse(run.printed(task).rules_json as string) as { version: string; path_mapping_rules: PathMappingRule[] };
    const bySource = (a: PathMappingRule, b: PathMappingRule) => a.source_path.localeCompare(b.source_path);
    expect(document.version).toBe("pathmapping-1.0");
    expect([...document.path_mapping_rules].sort(bySource)).toEqual([...rules].sort(bySource));
  });

  it("without rules: HasPathMappingRules is false, the file exists and holds no rules, nothing is mapped", async () => {
    const run = await runSession(job);
    const task = run.action("TASK_RUN", "S");
    expect(run.printed(task)).toMatchObject({ has_rules: "false", Deep: "/mnt/projects/shots/a.exr", In: "/mnt/projects/plates/p.dpx" });
    expect(task.logs.some((l) => l.startsWith(`${run.workingDirectory}/`))).toBe(true);
    const document = JSON.parse(run.printed(task).rules_json as string) as { path_mapping_rules?: unknown[] };
    expect(document.path_mapping_rules ?? []).toEqual([]);
  });
});

describe("TASK_CHUNKING", () => {
  /** Contiguous chunks of a..b: ceil(n/size) chunks, sizes differing by at most one, larger first. */
  function contiguousChunks(first: number, last: number, size: number): string[] {
    const n = last - first + 1;
    const count = Math.ceil(n / size);
    const chunks: string[] = [];
    let start = first;
    for (let i = 0; i < count; i++) {
      const length = Math.floor(n / count) + (i < n % count ? 1 : 0);
      chunks.push(`${start}-${start + length - 1}`);
      start += length;
    }
    return chunks;
  }

  function chunkJob(range: string, size: number, constraint: "CONTIGUOUS" | "NONCONTIGUOUS"): ReturnType<typeof buildJob> {
    return buildJob(
      dedent(`
        specificationVersion: jobtemplate-2023-09
        extensions: [TASK_CHUNKING]
        name: J
        steps:
        - name: Render
          parameterSpace:
            taskParameterDefinitions:
            - name: Frame
              type: CHUNK[INT]
              range: "${range}"
              chunks:
                defaultTaskCount: ${size}
                rangeConstraint: ${constraint}
          script:
            actions:
              onRun: ${py(PRINT_ARGS, {}, "Frame={{Task.Param.Frame}}")}
      `),
    );
  }

  it.each([
    [1, 6, 3],
    [1, 12, 5],
    [1, 7, 3],
    [1, 5, 100],
  ])("runs %i-%i in chunks of %i, each chunk as one task printing its range", async (first, last, size) => {
    const run = await runSession(chunkJob(`${first}-${last}`, size, "CONTIGUOUS"));
    const expected = contiguousChunks(first, last, size);
    expect(run.summary).toEqual(expected.map(() => "TASK_RUN Render SUCCEEDED"));
    expect(run.tasks().map((t) => run.printed(t).Frame)).toEqual(expected);
    expect(run.tasks().map((t) => t.parameters.Frame)).toEqual(expected);
  });

  it("a NONCONTIGUOUS chunk prints its canonical range expression", async () => {
    const run = await runSession(chunkJob("1-3,7-8", 5, "NONCONTIGUOUS"));
    expect(run.tasks().map((t) => run.printed(t).Frame)).toEqual(["1-3,7,8"]);
  });
});

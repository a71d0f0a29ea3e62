/**
 * Session lifecycle with real subprocesses (spec digest §12.1–§12.2): a fresh working directory per
 * Session, environments entered in order and exited in reverse, several tasks in one Session,
 * switching step environments, failures and cancelation being terminal while every entered
 * environment is still exited.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { describe, expect, it } from "vitest";
import { buildJob, dedent, py, runSession, sh, taskJob, tempRoot } from "./session-test-support";

const ok = sh("true");

function envBlock(names: readonly string[], indent: string, failing: { enter?: string; exit?: string } = {}): string {
  return names
    .map((name) =>
      dedent(`
        - name: ${name}
          script:
            actions:
              onEnter: ${name === failing.enter ? sh("exit 1") : ok}
              onExit: ${name === failing.exit ? sh("exit 2") : sh(`echo exited-${name}`)}
      `)
        .trimEnd()
        .split("\n")
        .map((l) => indent + l)
        .join("\n"),
    )
    .join("\n");
}

/** A `jobEnvironments:` block of `envBlock` environments, for `taskJob`. */
function jobEnvironments(names: readonly string[], failing: { enter?: string; exit?: string } = {}): string {
  return `jobEnvironments:\n${envBlock(names, "", failing)}`;
}

function envTemplate(name: string): string {
  return `
specificationVersion: environment-2023-09
environment:
  name: ${name}
  script:
    actions:
      onEnter: ${ok}
      onExit: ${ok}
`;
}

const TRACE_TASK = py("import os; open('marker', 'a').close(); print('cwd=' + os.getcwd())");

describe("the working directory", () => {
  const job = taskJob(py("import os\nprint('seen=' + str(os.path.exists('marker')))\nopen('marker', 'w').close()\nprint('cwd=' + os.getcwd())"));

  it("is fresh for every Session, the cwd of its actions, and removed at the end", async () => {
    const root = tempRoot();
    const first = await runSession(job, { rootDirectory: root });
    const second = await runSession(job, { rootDirectory: root });
    for (const run of [first, second]) {
      expect(run.result.status).toBe("SUCCEEDED");
      expect(dirname(run.workingDirectory)).toBe(root);
      expect(run.printed(run.action("TASK_RUN", "S"))).toEqual({ seen: "False", cwd: run.workingDirectory });
      expect(existsSync(run.workingDirectory)).toBe(false);
      expect(run.ofType("session_ended")).toMatchObject([{ status: "SUCCEEDED", workingDirectory: run.workingDirectory, preserved: false }]);
    }
    expect(first.workingDirectory).not.toBe(second.workingDirectory);
    expect(readdirSync(root)).toEqual([]);
  });

  it("is kept, with what the tasks wrote, when preserved", async () => {
    const run = await runSession(job, { preserve: true });
    expect(run.result.preserved).toBe(true);
    expect(run.ofType("session_ended")).toMatchObject([{ preserved: true }]);
    expect(existsSync(`${run.workingDirectory}/marker`)).toBe(true);
    // Private to the Session's user.
    expect(statSync(run.workingDirectory).mode & 0o777).toBe(0o700);
  });
});

describe("environments", () => {
  it("enters environment templates, job environments, step environments in order and exits them in reverse", async () => {
    const templates = ["T1", "T2"];
    const jobEnvs = ["J1", "J2"];
    const stepEnvs = ["S1", "S2"];
    const job = buildJob(
      `
specificationVersion: jobtemplate-2023-09
name: J
jobEnvironments:
${envBlock(jobEnvs, "")}
steps:
- name: Step
  stepEnvironments:
${envBlock(stepEnvs, "  ")}
  script:
    actions:
      onRun: ${TRACE_TASK}
`,
      { environments: templates.map(envTemplate) },
    );
    const run = await runSession(job);
    const entered = [...templates, ...jobEnvs, ...stepEnvs];
    expect(run.summary).toEqual([...entered.map((n) => `ENV_ENTER ${n} SUCCEEDED`), "TASK_RUN Step SUCCEEDED", ...[...entered].reverse().map((n) => `ENV_EXIT ${n} SUCCEEDED`)]);
    expect(run.result).toMatchObject({ status: "SUCCEEDED", tasksRun: 1 });
  });

  it("runs several tasks in one Session between one enter and one exit, sharing the working directory", async () => {
    const frames = [1, 2, 3];
    const job = buildJob(`
      specificationVersion: jobtemplate-2023-09
      name: J
      jobEnvironments:
      - name: E
        script:
          actions:
            onEnter: ${ok}
            onExit: ${ok}
      steps:
      - name: Render
        parameterSpace:
          taskParameterDefinitions:
          - name: Frame
            type: INT
            range: "${frames[0]}-${frames.at(-1)}"
        script:
          actions:
            onRun: ${sh("ls frame-* 2>/dev/null | tr '\\n' ' ' | sed 's/^/before=/; s/ $//'; echo; touch frame-{{Task.Param.Frame}}")}
    `);
    const run = await runSession(job);
    expect(run.ofType("session_started")).toHaveLength(1);
    expect(run.summary).toEqual(["ENV_ENTER E SUCCEEDED", ...frames.map(() => "TASK_RUN Render SUCCEEDED"), "ENV_EXIT E SUCCEEDED"]);
    const tasks = run.tasks();
    expect(tasks.map((t) => t.parameters.Frame)).toEqual(frames.map(String));
    // Each task sees the files of the tasks before it.
    expect(tasks.map((t) => run.printed(t).before ?? "")).toEqual(
      frames.map((_, i) =>
        frames
          .slice(0, i)
          .map((f) => `frame-${f}`)
          .join(" "),
      ),
    );
    expect(run.result.tasksRun).toBe(frames.length);
  });

  it("between two steps exits and enters only the step environments that differ", async () => {
    const job = buildJob(`
specificationVersion: jobtemplate-2023-09
name: J
jobEnvironments:
${envBlock(["Shared"], "")}
steps:
- name: A
  stepEnvironments:
${envBlock(["EnvA"], "  ")}
  script:
    actions:
      onRun: ${ok}
- name: B
  dependencies:
  - dependsOn: A
  stepEnvironments:
${envBlock(["EnvB"], "  ")}
  script:
    actions:
      onRun: ${ok}
`);
    const run = await runSession(job);
    expect(run.summary).toEqual([
      "ENV_ENTER Shared SUCCEEDED",
      "ENV_ENTER EnvA SUCCEEDED",
      "TASK_RUN A SUCCEEDED",
      "ENV_EXIT EnvA SUCCEEDED",
      "ENV_ENTER EnvB SUCCEEDED",
      "TASK_RUN B SUCCEEDED",
      "ENV_EXIT EnvB SUCCEEDED",
      "ENV_EXIT Shared SUCCEEDED",
    ]);
    expect(run.result).toMatchObject({ status: "SUCCEEDED", tasksRun: 2 });
  });
});

describe("failures are terminal", () => {
  it("a failed task stops the Session; every entered environment is still exited in reverse", async () => {
    const failAt = 2;
    const job = buildJob(`
specificationVersion: jobtemplate-2023-09
name: J
jobEnvironments:
${envBlock(["Outer"], "")}
steps:
- name: Render
  parameterSpace:
    taskParameterDefinitions:
    - name: Frame
      type: INT
      range: "1-4"
  stepEnvironments:
${envBlock(["Inner"], "  ")}
  script:
    actions:
      onRun: ${sh(`test {{Task.Param.Frame}} -ne ${failAt} || exit 3`)}
- name: After
  dependencies:
  - dependsOn: Render
  script:
    actions:
      onRun: ${ok}
`);
    const run = await runSession(job);
    expect(run.summary).toEqual([
      "ENV_ENTER Outer SUCCEEDED",
      "ENV_ENTER Inner SUCCEEDED",
      ...Array.from({ length: failAt - 1 }, () => "TASK_RUN Render SUCCEEDED"),
      "TASK_RUN Render FAILED",
      "ENV_EXIT Inner SUCCEEDED",
      "ENV_EXIT Outer SUCCEEDED",
    ]);
    expect(run.tasks().at(-1)).toMatchObject({ exitCode: 3, parameters: { Frame: String(failAt) } });
    expect(run.action("ENV_EXIT", "Inner").logs).toContain("exited-Inner");
    expect(run.result).toMatchObject({ status: "FAILED", tasksRun: failAt - 1 });
    expect(run.ofType("session_ended")).toMatchObject([{ status: "FAILED" }]);
  });

  it("a failing onEnter: nothing further is entered or run, and the failed environment is exited too", async () => {
    const job = taskJob(ok, jobEnvironments(["E1", "E2", "E3"], { enter: "E2" }));
    const run = await runSession(job);
    expect(run.summary).toEqual(["ENV_ENTER E1 SUCCEEDED", "ENV_ENTER E2 FAILED", "ENV_EXIT E2 SUCCEEDED", "ENV_EXIT E1 SUCCEEDED"]);
    expect(run.action("ENV_EXIT", "E2").logs).toContain("exited-E2");
    expect(run.result).toMatchObject({ status: "FAILED", tasksRun: 0 });
  });

  it("a failing onExit does not stop the outer environments from being exited", async () => {
    const job = taskJob(ok, jobEnvironments(["E1", "E2", "E3"], { exit: "E2" }));
    const run = await runSession(job);
    expect(run.summary).toEqual([
      "ENV_ENTER E1 SUCCEEDED",
      "ENV_ENTER E2 SUCCEEDED",
      "ENV_ENTER E3 SUCCEEDED",
      "TASK_RUN S SUCCEEDED",
      "ENV_EXIT E3 SUCCEEDED",
      "ENV_EXIT E2 FAILED",
      "ENV_EXIT E1 SUCCEEDED",
    ]);
    expect(run.action("ENV_EXIT", "E2").exitCode).toBe(2);
    expect(run.result.status).toBe("FAILED");
  });

  it("canceling through the AbortSignal cancels the task, runs no more tasks, still exits the environments: CANCELED", async () => {
    const job = buildJob(`
specificationVersion: jobtemplate-2023-09
name: J
jobEnvironments:
${envBlock(["Outer"], "")}
steps:
- name: Render
  parameterSpace:
    taskParameterDefinitions:
    - name: Frame
      type: INT
      range: "1-3"
  stepEnvironments:
${envBlock(["Inner"], "  ")}
  script:
    actions:
      onRun: ${sh("echo started; exec sleep 30")}
`);
    const controller = new AbortController();
    const began = Date.now();
    const run = await runSession(job, {
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === "log" && event.line === "started") controller.abort();
      },
    });
    expect(Date.now() - began).toBeLessThan(5_000);
    expect(run.summary).toEqual(["ENV_ENTER Outer SUCCEEDED", "ENV_ENTER Inner SUCCEEDED", "TASK_RUN Render CANCELED", "ENV_EXIT Inner SUCCEEDED", "ENV_EXIT Outer SUCCEEDED"]);
    // The onExit processes really ran.
    expect(["Inner", "Outer"].map((n) => run.action("ENV_EXIT", n).logs.includes(`exited-${n}`))).toEqual([true, true]);
    expect(run.result).toMatchObject({ status: "CANCELED", tasksRun: 0 });
    expect(run.ofType("session_ended")).toMatchObject([{ status: "CANCELED" }]);
  });

  it("canceling while an environment is being entered still runs that environment's onExit", async () => {
    const slow = dedent(`
      - name: Slow
        script:
          actions:
            onEnter: ${sh("echo started; exec sleep 30")}
            onExit: ${sh("echo exited-Slow")}
    `);
    const job = taskJob(ok, `${jobEnvironments(["Outer"])}\n${slow}`);
    const controller = new AbortController();
    const run = await runSession(job, {
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === "log" && event.line === "started") controller.abort();
      },
    });
    expect(run.summary).toEqual(["ENV_ENTER Outer SUCCEEDED", "ENV_ENTER Slow CANCELED", "ENV_EXIT Slow SUCCEEDED", "ENV_EXIT Outer SUCCEEDED"]);
    expect(run.action("ENV_EXIT", "Slow").logs).toContain("exited-Slow");
    expect(run.result.status).toBe("CANCELED");
  });

  it("a signal aborted before the Session starts runs nothing and reports CANCELED, not SUCCEEDED", async () => {
    const run = await runSession(taskJob(ok), { signal: AbortSignal.abort() });
    expect(run.tasks()).toEqual([]);
    expect(run.result).toMatchObject({ status: "CANCELED", tasksRun: 0 });
  });

  it("a cancel arriving between two tasks stops the Session and reports CANCELED, not SUCCEEDED", async () => {
    const job = buildJob(`
specificationVersion: jobtemplate-2023-09
name: J
jobEnvironments:
${envBlock(["E"], "")}
steps:
- name: Render
  parameterSpace:
    taskParameterDefinitions:
    - name: Frame
      type: INT
      range: "1-3"
  script:
    actions:
      onRun: ${ok}
`);
    const controller = new AbortController();
    let task: string | null = null;
    const run = await runSession(job, {
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === "action_started" && event.kind === "TASK_RUN") task = event.actionId;
        // Nothing is running at this moment: the first task has just ended.
        if (event.type === "action_ended" && event.actionId === task) controller.abort();
      },
    });
    expect(run.summary).toEqual(["ENV_ENTER E SUCCEEDED", "TASK_RUN Render SUCCEEDED", "ENV_EXIT E SUCCEEDED"]);
    expect(run.result).toMatchObject({ status: "CANCELED", tasksRun: 1 });
  });
});

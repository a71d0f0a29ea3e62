/**
 * The process environment of a Session's actions (spec digest §12.3–§12.5; reference behaviour
 * §3.4–§3.5): OPENJD_SESSION_WORKING_DIR, environment `variables`, openjd_env / openjd_unset_env
 * scoped to the environment that printed them, nothing from a task reaching the next one, and
 * openjd_redacted_env values masked everywhere whether or not REDACTED_ENV_VARS is declared.
 */
import { describe, expect, it } from "vitest";
import { buildJob, dedent, py, runSession, sh, showEnv, taskJob, TEST_PATH, UNSET } from "./session-test-support";

describe("variables", () => {
  it("OPENJD_SESSION_WORKING_DIR is the working directory in every action", async () => {
    const show = py("import os, sys; print('dir=' + os.environ['OPENJD_SESSION_WORKING_DIR']); print('arg=' + sys.argv[1])", {}, "{{Session.WorkingDirectory}}");
    const job = taskJob(
      show,
      dedent(`
        jobEnvironments:
        - name: E
          script:
            actions:
              onEnter: ${show}
              onExit: ${show}
      `),
    );
    const run = await runSession(job);
    expect(run.actions).toHaveLength(3);
    for (const view of run.actions) expect(run.printed(view)).toEqual({ dir: run.workingDirectory, arg: run.workingDirectory });
  });

  it("an environment's variables reach its own actions and everything inside it, and are gone once it is exited", async () => {
    const job = buildJob(`
      specificationVersion: jobtemplate-2023-09
      name: J
      jobEnvironments:
      - name: Outer
        variables:
          JV: job-value
          V: outer
        script:
          actions:
            onExit: ${showEnv("JV", "SV", "V")}
      steps:
      - name: A
        stepEnvironments:
        - name: Inner
          variables:
            SV: "step {{Param.Greeting}}"
            V: inner
          script:
            actions:
              onEnter: ${showEnv("JV", "SV", "V")}
              onExit: ${showEnv("JV", "SV", "V")}
        script:
          actions:
            onRun: ${showEnv("JV", "SV", "V")}
      - name: B
        dependencies:
        - dependsOn: A
        script:
          actions:
            onRun: ${showEnv("JV", "SV", "V")}
      parameterDefinitions:
      - name: Greeting
        type: STRING
        default: hello
    `);
    const run = await runSession(job);
    const inside = { JV: "job-value", SV: "step hello", V: "inner" };
    const outside = { JV: "job-value", SV: UNSET, V: "outer" };
    expect(run.printed(run.action("ENV_ENTER", "Inner"))).toEqual(inside);
    expect(run.printed(run.action("TASK_RUN", "A"))).toEqual(inside);
    expect(run.printed(run.action("ENV_EXIT", "Inner"))).toEqual(inside);
    expect(run.printed(run.action("TASK_RUN", "B"))).toEqual(outside);
    expect(run.printed(run.action("ENV_EXIT", "Outer"))).toEqual(outside);
  });

  it("openjd_env from an onEnter reaches later actions until its environment is exited", async () => {
    const value = "hello world=x";
    const job = buildJob(`
      specificationVersion: jobtemplate-2023-09
      name: J
      jobEnvironments:
      - name: Outer
        script:
          actions:
            onExit: ${showEnv("FROM_INNER")}
      steps:
      - name: S
        stepEnvironments:
        - name: Inner
          script:
            actions:
              onEnter: ${py(`import os\nprint('openjd_env: FROM_INNER=${value}')\nprint('FROM_INNER=' + os.environ.get('FROM_INNER', '${UNSET}'))`)}
              onExit: ${showEnv("FROM_INNER")}
        script:
          actions:
            onRun: ${showEnv("FROM_INNER")}
    `);
    const run = await runSession(job);
    // Not the emitting process itself: only subsequent actions.
    expect(run.printed(run.action("ENV_ENTER", "Inner"))).toEqual({ FROM_INNER: UNSET });
    expect(run.printed(run.action("TASK_RUN", "S"))).toEqual({ FROM_INNER: value });
    expect(run.printed(run.action("ENV_EXIT", "Inner"))).toEqual({ FROM_INNER: value });
    expect(run.printed(run.action("ENV_EXIT", "Outer"))).toEqual({ FROM_INNER: UNSET });
    expect(run.ofType("env_change")).toMatchObject([{ actionId: run.action("ENV_ENTER", "Inner").id, name: "FROM_INNER", change: "set", value }]);
  });

  it("openjd_env and openjd_unset_env printed by a task do not reach the next task or the environment's exit", async () => {
    const job = buildJob(`
      specificationVersion: jobtemplate-2023-09
      name: J
      jobEnvironments:
      - name: E
        variables:
          KEEP: kept
        script:
          actions:
            onExit: ${showEnv("LEAK", "KEEP")}
      steps:
      - name: S
        parameterSpace:
          taskParameterDefinitions:
          - name: Frame
            type: INT
            range: "1-2"
        script:
          actions:
            onRun: ${py(`import os\nfor n in ['LEAK', 'KEEP']: print(n + '=' + os.environ.get(n, '${UNSET}'))\nprint('openjd_env: LEAK=from-task-{{Task.Param.Frame}}')\nprint('openjd_unset_env: KEEP')`)}
    `);
    const run = await runSession(job);
    expect(run.result.status).toBe("SUCCEEDED");
    expect(run.tasks().map((t) => run.printed(t))).toEqual([
      { LEAK: UNSET, KEEP: "kept" },
      { LEAK: UNSET, KEEP: "kept" },
    ]);
    expect(run.printed(run.action("ENV_EXIT", "E"))).toEqual({ LEAK: UNSET, KEEP: "kept" });
  });

  it("openjd_unset_env wins over a set in the same environment, also for inherited variables, until it is exited", async () => {
    const job = buildJob(`
      specificationVersion: jobtemplate-2023-09
      name: J
      jobEnvironments:
      - name: Outer
        script:
          actions:
            onExit: ${showEnv("X", "INHERITED")}
      steps:
      - name: S
        stepEnvironments:
        - name: Inner
          variables:
            X: from-variables
          script:
            actions:
              onEnter: ${sh("echo 'openjd_unset_env: X'; echo 'openjd_env: X=set-later'; echo 'openjd_unset_env: INHERITED'")}
        script:
          actions:
            onRun: ${showEnv("X", "INHERITED")}
    `);
    const run = await runSession(job, { baseEnvironment: { PATH: TEST_PATH, INHERITED: "yes" } });
    expect(run.printed(run.action("TASK_RUN", "S"))).toEqual({ X: UNSET, INHERITED: UNSET });
    expect(run.printed(run.action("ENV_EXIT", "Outer"))).toEqual({ X: UNSET, INHERITED: "yes" });
    expect(run.ofType("env_change").map((e) => `${e.change} ${e.name}`)).toEqual(["unset X", "set X", "unset INHERITED"]);
  });
});

describe("openjd_redacted_env", () => {
  const SECRET = "hunter22";
  const MASK = "********";
  const enterWithSecret = sh(`echo 'openjd_redacted_env: SECRET=${SECRET}'; echo 'openjd_env: SHOWN=prefix-${SECRET}-suffix'`);
  const secretJob = (extensions: string, onRun: string) =>
    buildJob(`
      specificationVersion: jobtemplate-2023-09
      ${extensions}
      name: J
      jobEnvironments:
      - name: Secrets
        script:
          actions:
            onEnter: ${enterWithSecret}
            onExit: ${sh(`echo 'exit sees ${SECRET}'`)}
      steps:
      - name: S
        script:
          actions:
            onRun: ${onRun}
    `);

  it("without REDACTED_ENV_VARS: the value is masked in every later line, status, fail message and env_change, and not set", async () => {
    const task = py(
      dedent(`
        import os, sys
        print('SECRET=' + os.environ.get('SECRET', '${UNSET}'))
        print('SHOWN=' + os.environ.get('SHOWN', '${UNSET}'))
        print('the password is ${SECRET}!')
        print('on stderr ${SECRET}', file=sys.stderr)
        print('openjd_status: using ${SECRET}')
        print('openjd_fail: wrong ${SECRET}')
        sys.exit(1)
      `),
    );
    const run = await runSession(secretJob("", task));
    expect(JSON.stringify(run.events)).not.toContain(SECRET);
    expect(run.action("ENV_ENTER", "Secrets").logs).toEqual(expect.arrayContaining([`openjd_redacted_env: SECRET=${MASK}`, `openjd_env: SHOWN=prefix-${MASK}-suffix`]));
    const taskView = run.action("TASK_RUN", "S");
    expect(run.printed(taskView)).toMatchObject({ SECRET: UNSET, SHOWN: `prefix-${MASK}-suffix` });
    expect(taskView.logs).toEqual(expect.arrayContaining([`the password is ${MASK}!`, `on stderr ${MASK}`, `openjd_status: using ${MASK}`, `openjd_fail: wrong ${MASK}`]));
    expect(run.ofType("status").map((e) => e.message)).toEqual([`using ${MASK}`]);
    expect(run.ofType("fail_message").map((e) => e.message)).toEqual([`wrong ${MASK}`]);
    expect(taskView).toMatchObject({ status: "FAILED", exitCode: 1, failMessage: `wrong ${MASK}` });
    expect(run.action("ENV_EXIT", "Secrets").logs).toContain(`exit sees ${MASK}`);
    // Only the plain openjd_env: the redacted one does not set a variable without the extension.
    expect(run.ofType("env_change")).toEqual([expect.objectContaining({ name: "SHOWN", change: "set", value: `prefix-${MASK}-suffix` })]);
  });

  it("with REDACTED_ENV_VARS: the variable is set for later actions, its env_change carries no value", async () => {
    const task = py("import os\nprint('REVERSED=' + os.environ.get('SECRET', '')[::-1])\nprint('SECRET=' + os.environ.get('SECRET', ''))");
    const run = await runSession(secretJob("extensions: [REDACTED_ENV_VARS]", task));
    expect(JSON.stringify(run.events)).not.toContain(SECRET);
    expect(run.printed(run.action("TASK_RUN", "S"))).toEqual({ REVERSED: [...SECRET].reverse().join(""), SECRET: MASK });
    const changes = run.ofType("env_change");
    expect(changes.map((e) => e.name)).toEqual(["SECRET", "SHOWN"]);
    expect(changes[0]).toMatchObject({ change: "set", redacted: true });
    expect(changes[0]).not.toHaveProperty("value");
  });

  it("an environment template declaring REDACTED_ENV_VARS sets the variable even when the job does not declare it", async () => {
    const job = buildJob(
      `
      specificationVersion: jobtemplate-2023-09
      name: J
      steps:
      - name: S
        script:
          actions:
            onRun: ${py("import os\nprint('REVERSED=' + os.environ.get('SECRET', '')[::-1])")}
      `,
      {
        environments: [
          `
          specificationVersion: environment-2023-09
          extensions: [REDACTED_ENV_VARS]
          environment:
            name: Secrets
            script:
              actions:
                onEnter: ${enterWithSecret}
          `,
        ],
      },
    );
    const run = await runSession(job);
    expect(run.printed(run.action("TASK_RUN", "S"))).toEqual({ REVERSED: [...SECRET].reverse().join("") });
    expect(JSON.stringify(run.events)).not.toContain(SECRET);
  });

  it("a value a task declares with openjd_redacted_env is masked in its later lines and in later actions", async () => {
    const task = sh(`echo 'openjd_redacted_env: TASK_SECRET=${SECRET}'; echo 'then ${SECRET}'`);
    const run = await runSession(secretJob("", task));
    expect(run.action("TASK_RUN", "S").logs).toEqual(expect.arrayContaining([`openjd_redacted_env: TASK_SECRET=${MASK}`, `then ${MASK}`]));
    expect(run.action("ENV_EXIT", "Secrets").logs).toContain(`exit sees ${MASK}`);
    expect(JSON.stringify(run.events)).not.toContain(SECRET);
  });

  it("a value printed in two writes with a pause between them is still masked", async () => {
    const task = py(
      dedent(`
        import sys, time
        sys.stdout.write('split: ${SECRET.slice(0, 3)}'); sys.stdout.flush()
        time.sleep(0.3)
        sys.stdout.write('${SECRET.slice(3)} end\\n'); sys.stdout.flush()
      `),
    );
    const run = await runSession(secretJob("", task));
    expect(run.action("TASK_RUN", "S").logs).toContain(`split: ${MASK} end`);
    expect(JSON.stringify(run.events)).not.toContain(SECRET);
  });
});

/**
 * The farm end to end (issue 5 acceptance): the server in this process (temp-file SQLite, the
 * plain Node HTTP server, the sweep loop), workers as real `loom worker` processes, tasks as
 * real subprocesses, state read through the tRPC API and, for what the API does not show, the
 * database the server owns.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FarmHarness, fileLines, python, REPO, shell, submitTemplate, taskRuns, waitFor, waitForJobEnd, waitForSessionEnd, waitForWorkers, WORKER_TAG } from "./farm-harness";

let h: FarmHarness;
beforeEach(() => {
  h = new FarmHarness();
});
afterEach(async () => {
  await h.dispose();
});

/** Each task checks that every task of the previous step left its marker, waits a little, then leaves its own. */
const STEP_SCRIPT = `
import os, sys, time
d, step, prev, n = sys.argv[1:5]
if prev != "-":
    have = sorted(f for f in os.listdir(d) if f.startswith(prev + "-"))
    if have != [prev + "-" + str(i) for i in range(1, 5)]:
        print("markers of", prev, "missing:", have, flush=True)
        sys.exit(1)
time.sleep(0.4)
with open(os.path.join(d, step + "-" + n), "w") as f:
    f.write("step=%s N=%s worker=%s" % (step, n, os.environ.get("${WORKER_TAG}", "?")))
print(step, n, "done", flush=True)
`;

const chainJob = {
  specificationVersion: "jobtemplate-2023-09",
  name: "Chain",
  parameterDefinitions: [{ name: "Dir", type: "STRING" }],
  steps: ["A", "B", "C"].map((name, i, all) => ({
    name,
    ...(i > 0 ? { dependencies: [{ dependsOn: all[i - 1] }] } : {}),
    parameterSpace: { taskParameterDefinitions: [{ name: "N", type: "INT", range: "1-4" }] },
    script: { actions: { onRun: python(STEP_SCRIPT, "{{Param.Dir}}", name, i > 0 ? (all[i - 1] as string) : "-", "{{Task.Param.N}}") } },
  })),
};

describe("farm integration (real server, real `loom worker` processes)", () => {
  it("runs a 3-step job with step dependencies to SUCCEEDED on two workers, both of which ran tasks", async () => {
    const farm = await h.startFarm();
    h.startWorker(farm.url, farm.token, "w1");
    h.startWorker(farm.url, farm.token, "w2");
    await waitForWorkers(farm.api, 2);
    const dir = h.tempDir();
    const jobId = await submitTemplate(farm.api, chainJob, { Dir: dir });

    const job = await waitForJobEnd(farm.api, jobId, 40_000);
    expect(job.status).toBe("SUCCEEDED");
    expect(job.counts.SUCCEEDED).toBe(12);
    expect(job.steps.map((s) => `${s.name}:${s.status}:${s.counts.SUCCEEDED}`)).toEqual(["A:SUCCEEDED:4", "B:SUCCEEDED:4", "C:SUCCEEDED:4"]);

    // Every task left its marker with its own parameters (and the previous step's markers were there when it ran).
    const markers = readdirSync(dir).sort();
    expect(markers).toEqual(["A", "B", "C"].flatMap((s) => [1, 2, 3, 4].map((n) => `${s}-${n}`)));
    const ranOn = new Set<string>();
    for (const marker of markers) {
      const [step, n] = marker.split("-");
      const text = readFileSync(join(dir, marker), "utf8");
      expect(text).toMatch(new RegExp(`^step=${step} N=${n} worker=${h.tag}:(w1|w2)$`));
      ranOn.add(text.replace(/.*worker=/, ""));
    }
    expect([...ranOn].sort()).toEqual([h.workerTag("w1"), h.workerTag("w2")]);

    // As the farm recorded it: one successful run per task, both workers ran some, and no task of a
    // step started before every task of the step it depends on had ended.
    const runs = await taskRuns(farm.farm, jobId);
    expect(runs.filter((r) => r.status === "SUCCEEDED")).toHaveLength(12);
    expect(runs.every((r) => r.status === "SUCCEEDED")).toBe(true);
    expect(new Set(runs.map((r) => r.workerName))).toEqual(new Set(["w1", "w2"]));
    const times = new Map<string, { started: number[]; ended: number[] }>();
    for (const step of job.steps) {
      const { tasks } = await farm.api.jobs.tasks.query({ stepId: step.id });
      times.set(step.name, { started: tasks.map((t) => t.startedAt ?? NaN), ended: tasks.map((t) => t.endedAt ?? NaN) });
    }
    for (const [before, after] of [
      ["A", "B"],
      ["B", "C"],
    ] as const) {
      expect(Math.min(...times.get(after)!.started)).toBeGreaterThanOrEqual(Math.max(...times.get(before)!.ended));
    }
  }, 60_000);

  it("marks a step no pool can run NOT_COMPATIBLE with the reason, readable through the tRPC API", async () => {
    const farm = await h.startFarm();
    h.startWorker(farm.url, farm.token, "w1");
    await waitForWorkers(farm.api, 1);
    const jobId = await submitTemplate(farm.api, {
      specificationVersion: "jobtemplate-2023-09",
      name: "Picky",
      steps: [
        {
          name: "WindowsOnly",
          hostRequirements: { attributes: [{ name: "attr.worker.os.family", anyOf: ["windows"] }] },
          script: { actions: { onRun: shell("echo never") } },
        },
        {
          name: "Huge",
          hostRequirements: { amounts: [{ name: "amount.worker.vcpu", min: 100000 }] },
          script: { actions: { onRun: shell("echo never") } },
        },
        { name: "Anywhere", script: { actions: { onRun: shell("echo ran") } } },
      ],
    });

    const job = await waitFor(async () => {
      const j = await farm.api.jobs.get.query({ jobId });
      return j.steps.find((s) => s.name === "Anywhere")?.status === "SUCCEEDED" ? j : null;
    }, "the compatible step to run");
    const step = (name: string) => job.steps.find((s) => s.name === name)!;
    expect(step("WindowsOnly").status).toBe("NOT_COMPATIBLE");
    expect(step("WindowsOnly").counts.NOT_COMPATIBLE).toBe(1);
    expect(step("WindowsOnly").incompatibleReason).toMatch(
      /^no worker of an enabled pool matches its host requirements \(1 checked\): needs attr\.worker\.os\.family any of \[windows\], worker has \[linux\]$/,
    );
    expect(step("Huge").status).toBe("NOT_COMPATIBLE");
    expect(step("Huge").incompatibleReason).toMatch(/needs amount\.worker\.vcpu >= 100000, worker has \d+$/);
    expect(step("Anywhere").incompatibleReason).toBeNull();
    expect(job.status).toBe("NOT_COMPATIBLE");
    expect(job.counts).toMatchObject({ NOT_COMPATIBLE: 2, SUCCEEDED: 1, READY: 0, ASSIGNED: 0, RUNNING: 0 });
    // Nothing of the incompatible steps was ever handed to the worker.
    expect((await taskRuns(farm.farm, jobId)).map((r) => r.stepName)).toEqual(["Anywhere"]);
  }, 60_000);

  it("enters the job environment once and exits it once for 10 tasks on one worker", async () => {
    const farm = await h.startFarm();
    h.startWorker(farm.url, farm.token, "w1");
    await waitForWorkers(farm.api, 1);
    const dir = h.tempDir();
    const jobId = await submitTemplate(
      farm.api,
      {
        specificationVersion: "jobtemplate-2023-09",
        name: "Ten",
        parameterDefinitions: [{ name: "Dir", type: "STRING" }],
        jobEnvironments: [
          {
            name: "Farm",
            script: { actions: { onEnter: shell('echo enter >> "$1/enter.log"', "{{Param.Dir}}"), onExit: shell('echo exit >> "$1/exit.log"', "{{Param.Dir}}") } },
          },
        ],
        steps: [
          {
            name: "Work",
            parameterSpace: { taskParameterDefinitions: [{ name: "N", type: "INT", range: "1-10" }] },
            script: { actions: { onRun: shell('echo "task $2" >> "$1/tasks.log"', "{{Param.Dir}}", "{{Task.Param.N}}") } },
          },
        ],
      },
      { Dir: dir },
    );

    const job = await waitForJobEnd(farm.api, jobId);
    expect(job.status).toBe("SUCCEEDED");
    expect(job.counts.SUCCEEDED).toBe(10);
    // The exit is issued on the sync after the last task: wait for the Session to end.
    const session = await waitForSessionEnd(farm.api, jobId);
    expect(fileLines(join(dir, "enter.log"))).toEqual(["enter"]);
    expect(fileLines(join(dir, "exit.log"))).toEqual(["exit"]);
    expect(fileLines(join(dir, "tasks.log")).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `task ${i + 1}`).sort());
    expect(session.actions.map((a) => `${a.kind}:${a.status}`)).toEqual(["ENV_ENTER:SUCCEEDED", ...Array.from({ length: 10 }, () => "TASK_RUN:SUCCEEDED"), "ENV_EXIT:SUCCEEDED"]);
  }, 60_000);

  it("cancels a NOTIFY_THEN_TERMINATE task with SIGTERM, then runs the environment's onExit; the job is CANCELED", async () => {
    const farm = await h.startFarm();
    h.startWorker(farm.url, farm.token, "w1");
    await waitForWorkers(farm.api, 1);
    const dir = h.tempDir();
    const events = join(dir, "events.log");
    const trap = `
import os, signal, sys, time
d, n = sys.argv[1], sys.argv[2]
def log(text):
    with open(os.path.join(d, "events.log"), "a") as f:
        f.write(text + "\\n")
def on_term(signum, frame):
    log("task " + n + " got SIGTERM")
    sys.exit(0)
signal.signal(signal.SIGTERM, on_term)
log("task " + n + " started")
time.sleep(60)
log("task " + n + " slept to the end")
`;
    const jobId = await submitTemplate(
      farm.api,
      {
        specificationVersion: "jobtemplate-2023-09",
        name: "Cancel me",
        parameterDefinitions: [{ name: "Dir", type: "STRING" }],
        jobEnvironments: [
          {
            name: "Farm",
            script: { actions: { onEnter: shell('echo enter >> "$1/events.log"', "{{Param.Dir}}"), onExit: shell('echo exit >> "$1/events.log"', "{{Param.Dir}}") } },
          },
        ],
        steps: [
          {
            name: "Long",
            parameterSpace: { taskParameterDefinitions: [{ name: "N", type: "INT", range: "1-2" }] },
            script: { actions: { onRun: { ...python(trap, "{{Param.Dir}}", "{{Task.Param.N}}"), cancelation: { mode: "NOTIFY_THEN_TERMINATE", notifyPeriodInSeconds: 10 } } } },
          },
        ],
      },
      { Dir: dir },
    );
    await waitFor(() => fileLines(events).includes("task 1 started"), "task 1 to start");

    const canceledAt = Date.now();
    expect(await farm.api.jobs.cancel.mutate({ jobId })).toEqual({ changed: 2 });
    const session = await waitForSessionEnd(farm.api, jobId);
    // SIGTERM arrived (no SIGKILL: the task ended well inside its 10 s notify period), then onExit ran.
    expect(Date.now() - canceledAt).toBeLessThan(8_000);
    expect(fileLines(events)).toEqual(["enter", "task 1 started", "task 1 got SIGTERM", "exit"]);
    expect(session.actions.map((a) => `${a.kind}:${a.status}`)).toEqual(["ENV_ENTER:SUCCEEDED", "TASK_RUN:CANCELED", "ENV_EXIT:SUCCEEDED"]);
    const job = await farm.api.jobs.get.query({ jobId });
    expect(job.status).toBe("CANCELED");
    expect(job.canceled).toBe(true);
    expect(job.counts).toMatchObject({ CANCELED: 2, SUCCEEDED: 0, RUNNING: 0, ASSIGNED: 0, READY: 0 });
  }, 60_000);

  const SAMPLES = resolve(REPO, "..", "shared", "openjd-samples");
  const SHOWCASE = join(SAMPLES, "task-parameter-definition-showcase.yaml");
  it.skipIf(!existsSync(SHOWCASE))(
    `\`loom submit\` of the task-parameter showcase and \`loom job wait\` exit 0${existsSync(SHOWCASE) ? "" : ` (skipped: ${SHOWCASE} not found)`}`,
    async () => {
      const farm = await h.startFarm();
      h.startWorker(farm.url, farm.token, "w1");
      h.startWorker(farm.url, farm.token, "w2");
      await waitForWorkers(farm.api, 2);
      const pathValue = join(h.tempDir(), "path_file");

      const submitted = await h.runLoom(["submit", SHOWCASE, "-p", `PathValue=${pathValue}`, "--server", farm.url], 30_000, { LOOM_TOKEN: farm.adminToken });
      expect(submitted.code, submitted.output).toBe(0);
      const jobId = submitted.output.trim();
      expect(jobId).toMatch(/^job-[a-z2-7]{10}$/);
      const waited = await h.runLoom(["job", "wait", jobId, "--timeout", "80", "--server", farm.url], 85_000, { LOOM_TOKEN: farm.adminToken });
      expect(waited.output.trim()).toBe(`${jobId} SUCCEEDED`);
      expect(waited.code).toBe(0);

      const job = await farm.api.jobs.get.query({ jobId });
      expect(job.taskCount).toBe(264);
      expect(job.counts.SUCCEEDED).toBe(264);
      expect(job.parameters.PathValue).toEqual({ type: "PATH", value: pathValue });
      // The PATH value reached the task that echoes it.
      const logs = await farm.api.logs.lines.query({ jobId, limit: 10_000 });
      expect(logs.some((l) => l.line.includes(`Raw Value: ${pathValue}`))).toBe(true);
    },
    120_000,
  );
});

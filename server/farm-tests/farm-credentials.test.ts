/**
 * Tasks see no credential (issue 10, point 4): a real server, a real `loom worker` given its
 * pool's token in a file, and a job whose environment and task print their whole environment,
 * try to read the worker's token file, and read the worker's own process environment. No stored
 * log line may hold the enrollment token, a worker credential (`loom_wkr_…`: the agent keeps its
 * own in memory, the test never learns it), a personal access token or a sign-in session.
 */
import { readFileSync } from "node:fs";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FarmHarness, shell, submitTemplate, waitFor, waitForJobEnd, waitForWorkers } from "./farm-harness";

let h: FarmHarness;
beforeEach(() => {
  h = new FarmHarness();
});
afterEach(async () => {
  await h.dispose();
});

/** Prints the environment, then the token file (or why it cannot), then the parent's environment. */
const PROBE = `echo "== $1: env"; env; echo "== $1: token file"; cat "$2" 2>&1 || echo "token file unreadable"; echo "== $1: parent environ"; tr '\\0' '\\n' < /proc/$PPID/environ 2>&1; echo "== $1: done"`;

describe("credentials and tasks", () => {
  it("keeps every credential out of what a task prints: its environment, the token file, the worker's environment", async () => {
    const farm = await h.startFarm();
    const worker = h.startWorker(farm.url, farm.token, "w1");
    await waitForWorkers(farm.api, 1);
    const jobId = await submitTemplate(
      farm.api,
      {
        specificationVersion: "jobtemplate-2023-09",
        name: "Probe",
        parameterDefinitions: [{ name: "TokenFile", type: "STRING" }],
        jobEnvironments: [{ name: "Env", script: { actions: { onEnter: shell(PROBE, "enter", "{{Param.TokenFile}}") } } }],
        steps: [{ name: "Task", script: { actions: { onRun: shell(PROBE, "task", "{{Param.TokenFile}}") } } }],
      },
      { TokenFile: worker.tokenFile },
    );
    const ended = await waitForJobEnd(farm.api, jobId, 30_000);
    expect(ended.status).toBe("SUCCEEDED");
    const lines = await waitFor(async () => {
      const stored = await farm.api.logs.lines.query({ jobId, limit: 10_000 });
      return stored.some((l) => l.line === "== task: done") && stored;
    }, "the task's last line to be stored");
    const text = lines.map((l) => l.line);

    // The probes ran: each printed an environment (PATH at least) and reached its end.
    for (const phase of ["enter", "task"]) {
      expect(text).toContain(`== ${phase}: done`);
      const env = text.slice(text.indexOf(`== ${phase}: env`) + 1, text.indexOf(`== ${phase}: token file`));
      expect(env.some((l) => l.startsWith("PATH="))).toBe(true);
    }
    const leaks = text.filter((l) => l.includes(farm.token) || l.includes(farm.adminToken) || /loom_(wkr|pat|ses|enr|setup)_/.test(l));
    expect(leaks).toEqual([]);
    // The token file's one line never reached the log (the shield keeps the file out of the task's reach).
    expect(text.filter((l) => l.trim() === farm.token)).toEqual([]);
    // Nor is any credential in the worker's own environment, which its tasks would start from.
    const environ = readFileSync(`/proc/${worker.child.pid}/environ`, "latin1");
    expect(environ.includes(farm.token) || /loom_(wkr|pat|ses|enr)_/.test(environ)).toBe(false);
  }, 60_000);
});

/**
 * `loom run` and signals, through the real binary (`node bin/loom.mjs`): the first SIGINT or
 * SIGTERM cancels the running action, exits the environments and ends with exit 1; a second
 * SIGINT quits at once with 130 (CONVENTIONS rule 7).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sh, tempTree } from "./cli-test-support";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const stepWith = (onRun: string) => `specificationVersion: jobtemplate-2023-09
name: Sleeper
steps:
- name: S
  stepEnvironments:
  - name: StepEnv
    script:
      actions:
        onEnter:
          ${sh("echo STEP_ENV_ENTERED", 10)}
        onExit:
          ${sh("echo STEP_ENV_EXITED", 10)}
  script:
    actions:
      onRun:
${onRun}`;
// The task sleeps 30 s: a run that waited for it instead of canceling would blow every bound below.
const SLEEPER = stepWith(`        ${sh("echo TASK_STARTED; sleep 30; echo TASK_FINISHED")}\n`);
// Ignores SIGTERM during a 30 s grace period, so the first SIGINT leaves `loom run` waiting.
const STUBBORN = stepWith(`        command: python3
        args: ["-c", "import signal, time\\nsignal.signal(signal.SIGTERM, lambda *a: print('TERM_SEEN', flush=True))\\nprint('TASK_STARTED', flush=True)\\nfor _ in range(300): time.sleep(0.1)"]
        cancelation:
          mode: NOTIFY_THEN_TERMINATE
          notifyPeriodInSeconds: 30
`);

const tree = tempTree({ "sleeper.yaml": SLEEPER, "stubborn.yaml": STUBBORN });
afterAll(tree.remove);

interface Loom {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  waitFor: (text: string, ms?: number) => Promise<void>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

function startLoom(file: string): Loom {
  const child = spawn(process.execPath, ["bin/loom.mjs", "run", `${tree.dir}/${file}`], { cwd: REPO, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  const waiters: Array<() => void> = [];
  child.stdout?.on("data", (chunk) => {
    out += chunk;
    waiters.forEach((w) => w());
  });
  child.stderr?.on("data", (chunk) => (err += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.on("close", (code, signal) => {
      resolve({ code, signal, at: Date.now() });
      waiters.forEach((w) => w());
    }),
  );
  const waitFor = (text: string, ms = 15_000) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no '${text}' within ${ms} ms; output so far:\n${out}\n${err}`)), ms);
      const check = () => {
        if (out.includes(text)) {
          clearTimeout(timer);
          resolve();
        } else if (child.exitCode !== null) {
          clearTimeout(timer);
          reject(new Error(`exited ${child.exitCode} before '${text}'; output:\n${out}\n${err}`));
        }
      };
      waiters.push(check);
      check();
    });
  return { child, out: () => out, err: () => err, waitFor, exited };
}

/** The pid of each action's process, from the "Command started as pid: N" lines. */
const pids = (out: string) => [...out.matchAll(/Command started as pid: (\d+)/g)].map((m) => Number(m[1]));
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe.each(["SIGINT", "SIGTERM"] as const)("one %s while a task runs", (signal) => {
  let loom: Loom;
  let sentAt = 0;
  let exit: Awaited<Loom["exited"]>;
  beforeAll(async () => {
    loom = startLoom("sleeper.yaml");
    try {
      await loom.waitFor("TASK_STARTED");
      sentAt = Date.now();
      loom.child.kill(signal);
      exit = await Promise.race([loom.exited, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`still running 10 s after ${signal}:\n${loom.out()}`)), 10_000))]);
    } finally {
      if (loom.child.exitCode === null && loom.child.pid) process.kill(loom.child.pid, "SIGKILL");
    }
  }, 30_000);

  it("exits 1 within a few seconds", () => {
    expect(exit).toMatchObject({ code: 1, signal: null });
    expect(exit.at - sentAt).toBeLessThan(5_000);
    expect(loom.err()).toContain(`loom: ${signal} received, canceling the Session (send it again to quit at once)`);
  });

  it("the task's action is CANCELED, its processes are gone, the Session ends canceled", () => {
    const out = loom.out();
    expect(out).toMatch(/--- CANCELED/);
    expect(out).not.toContain("TASK_FINISHED");
    expect(out).toContain("Session ended canceled; see the log above for details");
    const taskPid = pids(out)[1] as number;
    expect(taskPid).toBeGreaterThan(0);
    expect(alive(taskPid)).toBe(false);
  });

  it("the step environment's onExit still runs", () => {
    const out = loom.out();
    expect(out).toContain("STEP_ENV_ENTERED");
    const exiting = out.slice(out.indexOf("=== Exiting environment 'StepEnv'"));
    expect(exiting).toContain("STEP_ENV_EXITED");
    expect(exiting).toMatch(/--- SUCCEEDED \(exit code 0\)/);
  });
});

it("a second SIGINT quits at once with 130", async () => {
  const loom = startLoom("stubborn.yaml");
  let taskPid = 0;
  try {
    await loom.waitFor("TASK_STARTED");
    taskPid = pids(loom.out()).at(-1) ?? 0;
    loom.child.kill("SIGINT");
    // The action now has its SIGTERM and 30 s of grace: loom run is still waiting on it.
    await loom.waitFor("TERM_SEEN");
    expect(loom.child.exitCode).toBeNull();
    const sentAt = Date.now();
    loom.child.kill("SIGINT");
    const exit = await loom.exited;
    expect(exit).toMatchObject({ code: 130, signal: null });
    expect(exit.at - sentAt).toBeLessThan(3_000);
    expect(loom.err()).toContain("loom: SIGINT again, quitting without cleanup");
  } finally {
    if (loom.child.exitCode === null && loom.child.pid) process.kill(loom.child.pid, "SIGKILL");
    // Quitting without cleanup leaves the action's process group behind: end the one this test started.
    if (taskPid > 0 && alive(taskPid)) process.kill(-taskPid, "SIGKILL");
  }
}, 30_000);

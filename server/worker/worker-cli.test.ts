/**
 * `loom worker` (server/cli/worker.ts): flags and their errors in-process, a whole drained run
 * against the fake farm, and the real process with real signals — the first SIGTERM drains
 * (the running task finishes, the exits run), a second one stops at once with 130. With the
 * task shield: --shield on/auto where it does not work, a task of the real process trying to
 * read the worker's secrets, and a killed worker's tasks dying with it.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { PROTOCOL_PATHS } from "../../lib/farm/protocol";
import { UsageError } from "../cli/args";
import { describeNotice, runWorker } from "../cli/worker";
import { eventually, py, sh, tempRoot } from "../session/session-test-support";
import { FakeFarm } from "./fake-farm";
import { dataFolder, processesWithArgument, SECRETS, shieldProblem, skipNotice } from "./shield-test-support";
import { assignment, deadUrl, definition, enter, exit, task, waitUntil } from "./worker-test-support";

const REPO = fileURLToPath(new URL("../../", import.meta.url));
const JOB = definition(
  "job-cli",
  `
  specificationVersion: jobtemplate-2023-09
  name: Cli
  jobEnvironments:
  - name: Farm
    script:
      actions:
        onExit: ${sh("echo FARM_EXIT")}
  steps:
  - name: Work
    parameterSpace:
      taskParameterDefinitions:
      - { name: Seconds, type: FLOAT, range: ["0", "1", "30"] }
    script:
      actions:
        onRun: ${py("import sys, time\nprint('TASK_STARTED', flush=True)\ntime.sleep(float(sys.argv[1]))\nprint('TASK_DONE', flush=True)", {}, "{{Task.Param.Seconds}}")}
  `,
);
const work = (id: string, seconds: string) => task(id, "Work", { Seconds: seconds }, "FLOAT");
const problem = await shieldProblem();
const notice = skipNotice(problem);

/** A bin folder whose unshare fails as it does where user namespaces are disabled. */
function brokenShieldHost(): string {
  const bin = realpathSync(mkdtempSync(join(tmpdir(), "loom-shield-broken-")));
  writeFileSync(join(bin, "unshare"), "#!/bin/sh\necho 'unshare: unshare failed: Operation not permitted' >&2\nexit 1\n", { mode: 0o755 });
  onTestFinished(() => rmSync(bin, { recursive: true, force: true }));
  return bin;
}

let farm: FakeFarm;
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await farm?.close();
});

function collector() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => out.push(t), err: (t: string) => err.push(t), cwd: REPO }, out, err };
}

/** When the worker says it drains, the fake farm sends the exit and ends the Session, as the real one does. */
async function sendExitsOnDrain(): Promise<void> {
  await waitUntil(() => farm.syncs.some((s) => s.draining), "a draining sync");
  farm.assignments = [assignment("s1", JOB, [exit("x1", "job:Farm")], true)];
}

describe("loom worker flags", () => {
  const c = collector();
  it.each([
    [[], /--server \(or LOOM_SERVER\) is required/],
    [["--server", "ftp://x"], /use an http:\/\/ or https:\/\/ URL/],
    [["--server", "nonsense"], /is not a URL/],
    [["--server", "http://x", "--server", "nonsense", "--token", "t"], /--server: 'nonsense' is not a URL/],
    [["--server", "http://x"], /a worker token is required: --token, --token-file or LOOM_WORKER_TOKEN/],
    [["--server", "http://x", "--token", "t", "--token-file", "f"], /not both/],
    [["--server", "http://x", "--token-file", "/no/such/file"], /--token-file: cannot read \/no\/such\/file: ENOENT/],
    [["--server", "http://x", "--token", "t", "--attr", "attr.worker.os.family=beos", "--amount", "amount.x=-2"], /--amount amount.x=-2: .*\nloom: --attr attr.worker.os.family=beos: /],
    [["--server", "http://x", "--token", "t", "extra"], /unexpected argument 'extra'/],
    [["--server", "http://x", "--token", "t", "--bogus"], /unknown option --bogus/],
    [["--server", "http://x", "--token", "t", "--shield", "maybe"], /--shield takes auto, on or off, not 'maybe'/],
  ])("%j is a usage error", async (argv, message) => {
    const run = runWorker(argv, c.io, undefined, {});
    await expect(run).rejects.toThrow(UsageError);
    await expect(run).rejects.toThrow(message);
  });

  it("describes each notable event on one line", () => {
    const action = { actionId: "t1", kind: "TASK_RUN" as const, stepName: "Work", parameters: { Frame: { type: "INT", value: "3" } } };
    expect(describeNotice({ type: "action_ended", sessionId: "s1", action, status: "FAILED", failMessage: "boom" }, { serverUrl: "http://x/" })).toBe("action t1 TASK_RUN Work Frame=3: FAILED (boom)");
    expect(describeNotice({ type: "registered", workerId: "w1", leaseEpoch: 2 }, { serverUrl: "http://x/", pool: "gpu" })).toBe("registered with http://x/ (pool gpu) as worker w1, lease 2");
  });
});

describe("loom worker --shield", () => {
  it("--shield on where the shield does not work: exit 1 with the reason, before registering", async () => {
    farm = await new FakeFarm().start();
    const c = collector();
    const code = await runWorker(["--server", farm.url, "--token", farm.token, "--shield", "on", "--session-root", tempRoot()], c.io, undefined, { searchPath: brokenShieldHost() });
    expect(code).toBe(1);
    expect(c.err).toEqual(["loom worker: --shield on: the task shield does not work here: unshare: unshare failed: Operation not permitted"]);
    expect(farm.registrations).toEqual([]);
  });

  it("--shield auto where it does not work: one warning line, then tasks run unshielded", async () => {
    farm = await new FakeFarm().start();
    farm.assignments = [assignment("s1", JOB, [work("t1", "0")], true)];
    const c = collector();
    const controller = new AbortController();
    const run = runWorker(["--server", farm.url, "--token", farm.token, "--session-root", tempRoot()], c.io, controller.signal, { searchPath: brokenShieldHost() });
    await waitUntil(() => c.out.some((line) => line.startsWith("session s1 ended")), "the Session to end");
    controller.abort();
    expect(await run).toBe(0);
    expect(farm.finalStatus("t1")).toBe("SUCCEEDED");
    expect(c.err).toEqual([
      "loom worker: warning: running tasks without the task shield (unshare: unshare failed: Operation not permitted): tasks can read every file this OS user can (token files, the farm database); on a shared host, run the worker as an OS user of its own and its tasks as another (README, 'Shared hosts')",
    ]);
  });
});

describe("loom worker", () => {
  it("takes the token from a file or the environment, runs its work and drains when the signal aborts", async () => {
    farm = await new FakeFarm().start();
    farm.assignments = [assignment("s1", JOB, [enter("e1", "job:Farm"), work("t1", "1"), work("t2", "0")])];
    const tokenFile = join(tempRoot(), "token");
    writeFileSync(tokenFile, `${farm.token}\n`);
    const c = collector();
    const controller = new AbortController();
    const args = ["--server", farm.url, "--token-file", tokenFile, "--name", "cli-worker", "--pool", "gpu", "--attr", "attr.render.software=maya", "--session-root", tempRoot()];
    const run = runWorker(args, c.io, controller.signal, { token: "ignored-when-a-file-is-given" });
    await waitUntil(() => farm.storedText("s1").includes("TASK_STARTED"), "the task to start");
    controller.abort();
    await sendExitsOnDrain();
    expect(await run).toBe(0);
    expect(farm.registrations[0]?.capabilities.attributes["attr.render.software"]).toEqual(["maya"]);
    expect(farm.finalStatus("t1")).toBe("SUCCEEDED");
    expect(farm.finalStatus("t2")).toBe("NEVER_ATTEMPTED");
    expect(farm.finalStatus("x1")).toBe("SUCCEEDED");
    expect(c.out).toEqual([
      expect.stringMatching(/^registered with http:\/\/127\.0\.0\.1:\d+\/ \(pool gpu\) as worker worker-1, lease 1$/),
      expect.stringMatching(/^session s1 started: job 'Cli' in \//),
      "action e1 ENV_ENTER job:Farm: SUCCEEDED",
      "draining: no new work, finishing the running action",
      "action t1 TASK_RUN Work Seconds=1: SUCCEEDED",
      "action t2 TASK_RUN Work Seconds=0: NEVER_ATTEMPTED (the worker is shutting down)",
      "action x1 ENV_EXIT job:Farm: SUCCEEDED",
      "session s1 ended: SUCCEEDED",
      "stopped (drained)",
    ]);
    // LOOM_WORKER_TOKEN and LOOM_SERVER, as the caller read them.
    const fromEnvironment = new AbortController();
    const second = runWorker([], collector().io, fromEnvironment.signal, { token: farm.token, server: farm.url });
    await waitUntil(() => farm.registrations.length === 2, "the second worker to register");
    fromEnvironment.abort();
    expect(await second).toBe(0);
    expect(farm.requests.filter((r) => r.path === PROTOCOL_PATHS.register).map((r) => r.authorization)).toEqual([`Bearer ${farm.token}`, `Bearer ${farm.token}`]);
  });

  it("takes --server several times: starts on the first that answers and says when it moves", async () => {
    farm = await new FakeFarm().start();
    const dead = await deadUrl();
    farm.assignments = [assignment("s1", JOB, [work("t1", "0")], true)];
    const c = collector();
    const controller = new AbortController();
    const run = runWorker(["--server", dead, `--server=${farm.url}`, "--server", `${dead}/`, "--token", farm.token, "--session-root", tempRoot()], c.io, controller.signal, {});
    await waitUntil(() => c.out.some((line) => line.startsWith("session s1 ended")), "the Session to end");
    controller.abort();
    expect(await run).toBe(0);
    expect(farm.finalStatus("t1")).toBe("SUCCEEDED");
    expect(c.err).toEqual([expect.stringMatching(new RegExp(`^loom worker: server ${dead}/ stopped answering \\(connect ECONNREFUSED 127\\.0\\.0\\.1:\\d+\\); now using ${farm.url}/$`))]);
    expect(c.out[0]).toMatch(new RegExp(`^registered with ${farm.url}/ as worker worker-1, lease 1$`));
  });

  it("exits 1 when the server refuses the token", async () => {
    farm = await new FakeFarm().start();
    const c = collector();
    expect(await runWorker(["--server", farm.url, "--token", "wrong"], c.io, undefined, {})).toBe(1);
    expect(c.err).toEqual([expect.stringMatching(/^loom worker: the server refused this worker: .*HTTP 401: unknown worker token$/)]);
  });
});

/** The real process: node + tsx running runWorker with processIo, so its own signal handlers are installed. */
function startWorkerProcess(args: string[], env: Record<string, string> = {}) {
  const script = `import { register } from "tsx/esm/api"; register();
const { runWorker } = await import("./server/cli/worker.ts");
const { processIo } = await import("./server/cli/io.ts");
process.exitCode = await runWorker(process.argv.slice(1), processIo);`;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script, "--", ...args], { cwd: REPO, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, ...env } });
  children.push(child);
  let out = "";
  child.stdout.on("data", (chunk) => (out += chunk));
  child.stderr.on("data", (chunk) => (out += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, out: () => out, exited };
}

describe("loom worker signals (real process)", () => {
  it("drains on the first SIGTERM: the task finishes and the exits run; exit 0", async () => {
    farm = await new FakeFarm().start();
    farm.assignments = [assignment("s1", JOB, [enter("e1", "job:Farm"), work("t1", "1"), work("t2", "0")])];
    const worker = startWorkerProcess(["--server", farm.url, "--token", farm.token, "--session-root", tempRoot()]);
    await waitUntil(() => farm.storedText("s1").includes("TASK_STARTED"), "the task to start", 30_000);
    worker.child.kill("SIGTERM");
    await sendExitsOnDrain();
    expect(await worker.exited).toBe(0);
    expect(farm.finalStatus("t1")).toBe("SUCCEEDED");
    expect(farm.finalStatus("x1")).toBe("SUCCEEDED");
    expect(worker.out()).toContain("SIGTERM received, draining (send it again to stop at once)");
    expect(worker.out()).toContain("stopped (drained)");
  });

  it("stops at once on a second SIGTERM: exit 130, the task killed", async () => {
    farm = await new FakeFarm().start();
    farm.assignments = [assignment("s1", JOB, [enter("e1", "job:Farm"), work("t1", "30")])];
    const worker = startWorkerProcess(["--server", farm.url, "--token", farm.token, "--session-root", tempRoot()]);
    await waitUntil(() => farm.storedText("s1").includes("TASK_STARTED"), "the task to start", 30_000);
    worker.child.kill("SIGTERM");
    await waitUntil(() => worker.out().includes("draining"), "the worker to drain");
    const began = Date.now();
    worker.child.kill("SIGTERM");
    expect(await worker.exited).toBe(130);
    expect(Date.now() - began).toBeLessThan(5_000);
    expect(worker.out()).toContain("SIGTERM again, stopping now");
    expect(farm.finalStatus("t1")).toBeUndefined();
  });
});

/** A job of one task running `script` with sh. */
function shJob(id: string, script: string) {
  return definition(
    id,
    `
  specificationVersion: jobtemplate-2023-09
  name: Shielded
  steps:
  - name: Try
    script:
      actions:
        onRun: ${sh(script)}
  `,
  );
}

describe.skipIf(problem !== null)(`loom worker with the task shield (real process)${notice}`, () => {
  it("a task that goes after the worker's secrets finds none, and its own Session files still work", async () => {
    farm = await new FakeFarm().start();
    const folder = dataFolder();
    writeFileSync(folder.poolToken, `${farm.token}\n`, { mode: 0o600 });
    // As `loom serve` starts its workers, with a shell's credentials in the environment too.
    const args = ["--server", farm.url, "--token-file", folder.poolToken, "--hide", folder.data, "--session-root", folder.sessionRoot, "--shield", "on"];
    const worker = startWorkerProcess(args, {
      LOOM_TOKEN: SECRETS.admin,
      LOOM_SETUP_TOKEN: "loom_setup_first-start-secret",
      LOOM_WORKER_TOKEN: farm.token,
      XDG_CONFIG_HOME: join(folder.configDir, ".."),
    });
    const pid = worker.child.pid!;
    const attack = [
      "echo '# env'; env",
      `echo '# token file'; cat '${folder.poolToken}'`,
      `echo '# admin token'; cat '${folder.adminToken}'`,
      `echo '# database'; cat '${folder.database}' '${folder.database}-wal'`,
      `echo '# login'; cat '${folder.configDir}/credentials.json'`,
      `echo '# worker environ'; cat /proc/${pid}/environ; cat /proc/${pid}/cmdline`,
      "echo '# proc'; ls /proc | grep '^[0-9]' | tr '\\n' ' '; echo",
      'echo mine > own-file && echo "own: $(cat own-file)"',
    ].join("\n");
    farm.assignments = [assignment("s1", shJob("job-attack", attack), [task("t1", "Try")], true)];
    await waitUntil(() => farm.finalStatus("t1") !== undefined, "the attacking task to end", 30_000);
    worker.child.kill("SIGTERM");
    expect(await worker.exited).toBe(0);
    expect(farm.finalStatus("t1")).toBe("SUCCEEDED");
    const output = farm.storedText("s1");
    expect(output).toContain("own: mine");
    const text = output.join("\n");
    for (const secret of [farm.token, ...farm.credentials, SECRETS.admin, SECRETS.database, SECRETS.login, "loom_setup_first-start-secret"]) expect(text).not.toContain(secret);
    expect(output.filter((line) => /^LOOM_(WORKER_|SETUP_|POOL_)?TOKEN/.test(line))).toEqual([]);
    const pids = (output[output.indexOf("# proc") + 1] ?? "").trim().split(" ").map(Number);
    // The namespace's own processes only: PID 1, the task's sh, ls, grep, tr (numbered from 1 there).
    expect(pids.length).toBeGreaterThan(0);
    expect(pids.length).toBeLessThanOrEqual(6);
    expect(pids).not.toContain(pid);
  });

  it("a worker killed with SIGKILL takes its tasks with it, even one that left the process group", async () => {
    farm = await new FakeFarm().start();
    const marker = `shield-reaper-${process.pid}-${Date.now()}`;
    const sleeper = (text: string) => `python3 -c "import time; print('${text}', flush=True); time.sleep(300)" ${marker}`;
    farm.assignments = [assignment("s1", shJob("job-sleep", `setsid ${sleeper("ESCAPED")} & ${sleeper("TASK_STARTED")}`), [task("t1", "Try")], true)];
    const worker = startWorkerProcess(["--server", farm.url, "--token", farm.token, "--session-root", tempRoot(), "--shield", "on"]);
    await waitUntil(() => farm.storedText("s1").includes("TASK_STARTED") && farm.storedText("s1").includes("ESCAPED"), "the task to start", 30_000);
    expect(processesWithArgument(marker).length).toBeGreaterThanOrEqual(2);
    worker.child.kill("SIGKILL");
    await worker.exited;
    expect(await eventually(() => processesWithArgument(marker).length === 0, 5_000)).toBe(true);
  });
});

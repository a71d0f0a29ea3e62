/**
 * A full disk under the farm's store (issue 11): a task floods its log while the server's data
 * folder, on a small tmpfs this test mounts, runs out of space; then space returns. Nothing the
 * server acknowledged may be lost, the task must not run twice (the worker's reports the store
 * could not take do not make it "silent"), and the server must say why it refused.
 *
 * Mounting needs root (CI runs as root); elsewhere the test is skipped with the reason, and the
 * refusal logic keeps its in-process tests (store-health.test.ts).
 */
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testEngine } from "../store/engines-test-support";
import { FarmHarness, freePort, LOOM_BIN, localAdminClient, REPO, shell, sleep, submitTemplate, waitFor, waitForJobEnd } from "./farm-harness";

const LINES = 200_000;

function mount(dir: string, size: string): string | null {
  const run = spawnSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { encoding: "utf8" });
  return run.status === 0 ? null : (run.stderr || run.error?.message || `mount exited with ${run.status}`).trim();
}

function remount(dir: string, size: string): void {
  const run = spawnSync("mount", ["-o", `remount,size=${size}`, dir], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`remount of ${dir} failed: ${run.stderr}`);
}

function unmount(dir: string): void {
  spawnSync("umount", ["-l", dir]);
}

/** Whether this machine lets the test mount a tmpfs (root, and a container that allows it). */
const cannotMount = (() => {
  if (process.platform !== "linux") return "mounting a tmpfs needs Linux";
  if (process.getuid?.() !== 0) return "mounting a tmpfs needs root (CI runs as root)";
  const probe = mkdtempSync(join(tmpdir(), "loom-mount-probe-"));
  const refused = mount(probe, "1m");
  if (!refused) unmount(probe);
  rmdirSync(probe);
  return refused ? `mount refused: ${refused}` : null;
})();

let h: FarmHarness;
let mounted: string | null = null;
beforeEach(() => {
  h = new FarmHarness();
});
afterEach(async () => {
  await h.dispose();
  if (mounted) {
    unmount(mounted);
    rmdirSync(mounted);
  }
  mounted = null;
});

// The store on a tmpfs is SQLite's data folder; PostgreSQL's disk is its server's, not the farm's to fill.
const skipFull = testEngine() === "postgres" ? "SQLite only: the data folder's database on a small tmpfs" : cannotMount;
describe.skipIf(skipFull !== null)(`a full disk under the store${skipFull ? ` (skipped: ${skipFull})` : ""}`, () => {
  it(`a log flood of ${LINES.toLocaleString("en")} lines into a full store: after space returns every line is there once, in order, and the task ran once`, async () => {
    // Not one of the harness's folders: it is unmounted before it is removed (afterEach).
    const disk = mkdtempSync(join(tmpdir(), "loom-disk-full-"));
    const refused = mount(disk, "8m");
    if (refused) throw new Error(`mount failed after the probe worked: ${refused}`);
    mounted = disk;
    const data = join(disk, "data");
    mkdirSync(data);
    const runs = join(h.tempDir("loom-disk-full-runs-"), "runs");
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const token = `loom_${randomBytes(24).toString("base64url")}`;
    // A short worker timeout: were the worker judged silent while the store refused its reports,
    // the sweep would declare it lost within the test and the task would run again.
    const server = await h.serveLoom(data, port, { LOOM_POOL_TOKEN: token, LOOM_SYNC_INTERVAL_SECONDS: "0.25", LOOM_WORKER_TIMEOUT_SECONDS: "3" });
    h.startWorker(url, token, "w1");
    const api = localAdminClient(url, data);
    const jobId = await submitTemplate(api, {
      specificationVersion: "jobtemplate-2023-09",
      name: "Flood",
      steps: [{ name: "Flood", script: { actions: { onRun: shell(`echo run >> '${runs}'; seq 0 ${LINES - 1} | sed 's/^/flood line /'`) } } }],
    });

    await waitFor(() => server.output().includes("the farm's store cannot write"), "the store to fill and the server to say so", 60_000);
    // Longer than the worker timeout, with the store refusing everything.
    await sleep(5_000);
    remount(disk, "512m");
    const job = await waitForJobEnd(api, jobId, 120_000);
    await waitFor(() => server.output().includes("the farm's store writes again"), "the server to say the store writes again", 10_000);

    const db = new Database(join(data, "loom.db"), { readonly: true });
    try {
      const stored = db.prepare<[string], { n: number }>("SELECT COUNT(*) AS n FROM log_lines WHERE job_id = ? AND line LIKE 'flood line %'");
      // The job ends with the task's report; lines the worker still holds follow it. Wait until
      // they are all in, or until nothing more arrives for 10 s (then what is missing is lost).
      let last = -1;
      let since = Date.now();
      await waitFor(
        () => {
          const n = stored.get(jobId)!.n;
          if (n !== last) [last, since] = [n, Date.now()];
          return n >= LINES || Date.now() - since > 10_000;
        },
        "the worker's held lines to arrive",
        120_000,
        250,
      );
      const lines = db
        .prepare<[string], { line: string }>("SELECT line FROM log_lines WHERE job_id = ? AND line LIKE 'flood line %' ORDER BY session_id, seq")
        .all(jobId)
        .map((row) => row.line);
      const sessions = db.prepare<[string], { n: number }>("SELECT COUNT(*) AS n FROM sessions WHERE job_id = ?").get(jobId)!.n;
      const wrong = lines.findIndex((line, i) => line !== `flood line ${i}`);
      expect({ status: job.status, runs: readFileSync(runs, "utf8"), sessions, lines: lines.length, firstWrong: wrong }).toEqual({
        status: "SUCCEEDED",
        runs: "run\n",
        sessions: 1,
        lines: LINES,
        firstWrong: -1,
      });
    } finally {
      db.close();
    }
    expect(server.output()).toMatch(/the farm's store cannot write \(database or disk is full\)/);
  }, 240_000);
});

/** The server's own output on a full disk: `/dev/full` refuses every write with ENOSPC. */
// The server's own stdout, whatever its store: run once, with SQLite.
describe.skipIf(!existsSync("/dev/full") || testEngine() === "postgres")("a full disk under the server's own log", () => {
  it("`loom serve > /dev/full` keeps serving and says on stderr that its stdout cannot be written", async () => {
    const data = h.tempDir("loom-devfull-data-");
    const port = await freePort();
    const full = openSync("/dev/full", "w");
    const child = spawn(process.execPath, [LOOM_BIN, "serve", "--headless", "--workers", "0", "--port", String(port), "--data", data], { cwd: REPO, stdio: ["ignore", full, "pipe"] });
    closeSync(full);
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    try {
      const health = await waitFor(
        () =>
          fetch(`http://127.0.0.1:${port}/api/health`).then(
            (r) => r.ok,
            () => child.exitCode !== null || null,
          ),
        "the server to answer while its stdout is full",
        30_000,
        100,
      );
      expect({ answered: health, running: child.exitCode === null }).toEqual({ answered: true, running: true });
      expect(stderr).toContain("loom: cannot write its stdout (ENOSPC");
    } finally {
      child.kill("SIGKILL");
    }
  }, 60_000);
});

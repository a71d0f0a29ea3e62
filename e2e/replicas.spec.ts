/**
 * Two server replicas on one PostgreSQL (issue 12), as a wrangler sees them: replica A runs the
 * farm's only worker, replica B runs none, and a browser signed in on B watches a Session that
 * A's worker runs. Every line the task prints after the page opened must show on B's page within
 * a second of the moment the task printed it (the task writes its own clock into each line; the
 * page notes when each line first appears; both clocks are this machine's). The line goes worker
 * → A → PostgreSQL (stored, then NOTIFY) → B's listener → B's live subscription → the browser.
 *
 * The spec starts both replicas itself (`loom serve --database`, each with its own data folder
 * and port, on a database it creates and drops), beside the e2e farm the other specs share.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import pg from "pg";
import { expect, test } from "./fixtures";
import { PORT } from "./personas";
import { signInThroughPage } from "./sign-in";
import { trpcMutation, trpcQuery } from "./trpc";

const ADMIN_DATABASE_URL = process.env.LOOM_TEST_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
const A = { name: "a", port: PORT + 1, workers: 1 };
const B = { name: "b", port: PORT + 2, workers: 0 };
const urlOf = (replica: { port: number }) => `http://127.0.0.1:${replica.port}`;
const dataOf = (replica: { port: number }) => `data/e2e-${replica.port}-replica`;

const WRANGLER = { name: "rita", password: "pw-e2e-replica-01" };
/** How many of the task's lines must arrive while the page watches, each within the bound. */
const WATCHED_LINES = 10;
const LAG_BOUND_MS = 1_000;

// Prints its clock every 300 ms until the gate file exists.
const SCRIPT = [
  "import os, sys, time",
  "i = 0",
  "while not os.path.exists(sys.argv[1]):",
  "    i += 1",
  "    print(f'tick {i} at {time.time() * 1000:.0f} ms', flush=True)",
  "    time.sleep(0.3)",
].join("\n");

function template(name: string, gate: string): string {
  return JSON.stringify({
    specificationVersion: "jobtemplate-2023-09",
    name,
    steps: [{ name: "Ticks", script: { actions: { onRun: { command: "python3", args: ["-c", SCRIPT, gate] } } } }],
  });
}

/** A database of its own on the test PostgreSQL, dropped at the end. */
async function withDatabase(name: string, run: (url: string) => Promise<void>): Promise<void> {
  const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE "${name}"`);
    const url = new URL(ADMIN_DATABASE_URL);
    url.pathname = `/${name}`;
    try {
      await run(url.toString());
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    }
  } finally {
    await admin.end();
  }
}

interface Replica {
  url: string;
  process: ChildProcess;
  output: string[];
}

/** `loom serve` on the shared database, listed in `started` (to be stopped) before it is waited for; its output is kept for the report. */
async function startReplica(replica: typeof A, databaseUrl: string, started: Replica[]): Promise<Replica> {
  const dataDir = dataOf(replica);
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  const child = spawn(process.execPath, ["bin/loom.mjs", "serve", "--port", String(replica.port), "--data", dataDir, "--workers", String(replica.workers), "--database", databaseUrl], {
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", LOOM_SYNC_INTERVAL_SECONDS: "2" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const output: string[] = [];
  child.stdout!.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => output.push(chunk.toString()));
  const url = urlOf(replica);
  const running: Replica = { url, process: child, output };
  started.push(running);
  await expect
    .poll(
      async () => {
        if (child.exitCode !== null) throw new Error(`replica ${replica.name} exited (${child.exitCode}):\n${output.join("")}`);
        return fetch(`${url}/api/health`).then(
          (response) => response.status,
          () => 0,
        );
      },
      { timeout: 120_000, intervals: [250] },
    )
    .toBe(200);
  return running;
}

/** Stops a replica as Ctrl-C would (it drains its workers), then for good if it lingers. */
async function stopReplica(replica: Replica): Promise<void> {
  const pid = replica.process.pid;
  if (pid === undefined || replica.process.exitCode !== null) return;
  const exited = once(replica.process, "exit");
  process.kill(-pid, "SIGINT");
  const timer = setTimeout(() => {
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // already gone
    }
  }, 20_000);
  await exited;
  clearTimeout(timer);
}

/** The API as replica A's local admin (the token `loom serve` keeps in its data folder). */
function adminApi(replica: Replica, dataDir: string): Promise<APIRequestContext> {
  const token = readFileSync(join(dataDir, "local-admin.token"), "utf8").trim();
  return playwrightRequest.newContext({ baseURL: replica.url, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
}

test.use({ baseURL: urlOf(B), storageState: { cookies: [], origins: [] } });

test("a browser on replica B sees, within a second, each line a worker of replica A prints", async ({ page }, testInfo) => {
  test.setTimeout(300_000);
  await withDatabase(`loom_e2e_replicas_${randomBytes(6).toString("hex")}`, async (databaseUrl) => {
    const replicas: Replica[] = [];
    const gate = join(tmpdir(), `loom-e2e-replicas-gate-${randomBytes(6).toString("hex")}`);
    try {
      // A first: it migrates the database; B then starts on it.
      const a = await startReplica(A, databaseUrl, replicas);
      await startReplica(B, databaseUrl, replicas);

      // An account made on A signs in on B: one farm.
      const api = await adminApi(a, dataOf(A));
      try {
        await trpcMutation(api, "users.create", { name: WRANGLER.name, role: "wrangler", password: WRANGLER.password });
        // The farm's only worker is A's.
        await expect.poll(async () => (await trpcQuery<unknown[]>(api, "workers.list", {})).length).toBe(A.workers);

        await signInThroughPage(page, WRANGLER.name, WRANGLER.password);

        const submitted = await trpcMutation<{ ok: boolean; jobId?: string; errors?: unknown }>(api, "jobs.submit", {
          template: { text: template(`e2e-replicas-${randomBytes(3).toString("hex")}`, gate), format: "json" },
        });
        expect(submitted, JSON.stringify(submitted.errors)).toMatchObject({ ok: true });
        const jobId = submitted.jobId as string;

        // The Session A's worker runs, opened on B.
        let session: { id: string; actions: Array<{ taskId: number | null }> } | undefined;
        await expect
          .poll(async () => {
            session = (await trpcQuery<Array<{ id: string; actions: Array<{ taskId: number | null }> }>>(page.request, "jobs.sessions", { jobId }))[0];
            return session?.actions.some((action) => action.taskId !== null) ?? false;
          })
          .toBe(true);
        const taskId = session!.actions.find((action) => action.taskId !== null)!.taskId!;
        await page.goto(`/jobs/${jobId}/sessions/${session!.id}?task=${taskId}`);
        const log = page.getByRole("log", { name: "Log lines" });
        await expect(log).toContainText(/tick \d+ at \d+ ms/);
        await expect(page.getByText(/ lines · Live$/)).toBeVisible();

        // From now on, note when each line first shows (lines already shown are not counted).
        const watchingSince = (await page.evaluate(`(() => {
          window.__tickSeenAt = {};
          const look = () => {
            const log = document.querySelector('[role="log"]');
            for (const match of (log ? log.textContent : "").matchAll(/tick (\\d+) at (\\d+) ms/g)) {
              const key = match[1] + " " + match[2];
              if (!(key in window.__tickSeenAt)) window.__tickSeenAt[key] = Date.now();
            }
          };
          look();
          const since = Date.now();
          new MutationObserver(look).observe(document.body, { subtree: true, childList: true, characterData: true });
          return since;
        })()`)) as number;

        await expect
          .poll(async () => Object.keys((await page.evaluate("window.__tickSeenAt")) as Record<string, number>).filter((key) => Number(key.split(" ")[1]) > watchingSince).length, { timeout: 60_000 })
          .toBeGreaterThanOrEqual(WATCHED_LINES);
        writeFileSync(gate, "done");
        await expect(page.getByRole("list", { name: "Session actions" }).getByRole("button", { name: /^Ticks: succeeded/ })).toBeVisible({ timeout: 60_000 });

        const seen = (await page.evaluate("window.__tickSeenAt")) as Record<string, number>;
        const lags = Object.entries(seen)
          .map(([key, seenAt]) => ({ line: Number(key.split(" ")[0]), printedAt: Number(key.split(" ")[1]), seenAt }))
          .filter((tick) => tick.printedAt > watchingSince)
          .map((tick) => ({ line: tick.line, lagMs: tick.seenAt - tick.printedAt }));
        testInfo.annotations.push({ type: "replica-log-lag", description: JSON.stringify(lags) });
        console.log(
          `replica log lag over ${lags.length} lines: max ${Math.max(...lags.map((tick) => tick.lagMs))} ms, median ${lags.map((tick) => tick.lagMs).sort((x, y) => x - y)[Math.floor(lags.length / 2)]} ms`,
        );
        expect(lags.length).toBeGreaterThanOrEqual(WATCHED_LINES);
        // Every line printed while the page watched showed, none skipped.
        const numbers = lags.map((tick) => tick.line).sort((x, y) => x - y);
        expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => numbers[0]! + i));
        for (const { line, lagMs } of lags) {
          expect(lagMs, `tick ${line}: seen before it was printed (the line was misread)`).toBeGreaterThanOrEqual(0);
          expect(lagMs, `tick ${line}: shown on B ${lagMs} ms after A's worker printed it`).toBeLessThan(LAG_BOUND_MS);
        }
      } finally {
        await api.dispose();
      }
    } finally {
      // Leave the replicas' pages first: stopping a server under open live streams is a browser error.
      await page.goto("about:blank");
      if (!existsSync(gate)) writeFileSync(gate, "done");
      for (const replica of replicas.reverse()) await stopReplica(replica);
      await testInfo.attach("replicas.log", { body: replicas.map((replica) => `== ${replica.url}\n${replica.output.join("")}`).join("\n"), contentType: "text/plain" });
      rmSync(gate, { force: true });
    }
  });
});

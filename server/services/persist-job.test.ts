/**
 * A job being created is not acknowledged: a server killed while writing one leaves it marked,
 * and the next start deletes it (and nothing else). Real subprocess, real file database.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { expect, it, onTestFinished } from "vitest";
import { openStore } from "../db/connection";
import { createFarm } from "../context/farm";
import { FarmLoop } from "./farm-loop";

const CHILD = fileURLToPath(new URL("./persist-job.test-child.ts", import.meta.url));

async function until(what: string, check: () => boolean, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

it("deletes at the next start the job a killed server was creating, and keeps the one it had answered", { timeout: 300_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "loom-interrupted-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, "loom.db");
  const child = spawn(process.execPath, ["--import", "tsx", CHILD, file], { stdio: ["ignore", "pipe", "inherit"] });
  let answered = "";
  child.stdout.on("data", (chunk: Buffer) => (answered += chunk.toString()));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  onTestFinished(() => void child.kill("SIGKILL"));

  await until("the small job's answer", () => answered.includes("\n"));
  const small = JSON.parse(answered) as { ok: boolean; jobId: string };
  expect(small).toMatchObject({ ok: true });
  const peek = new Database(file, { readonly: true, fileMustExist: true });
  const count = (sql: string) => (peek.prepare(sql).get() as { n: number }).n;
  await until("the big job half written", () => count("SELECT COUNT(*) AS n FROM tasks") > 100_000);
  child.kill("SIGKILL");
  await exited;
  const big = peek.prepare("SELECT id, status, task_count FROM jobs WHERE id != ?").get(small.jobId) as { id: string; status: string; task_count: number };
  // Being created: listed as PENDING with no tasks counted, and never dispatchable.
  expect(big).toMatchObject({ status: "PENDING", task_count: 0 });
  expect(count("SELECT COUNT(*) AS n FROM server_state WHERE key LIKE 'job-creating:%'")).toBe(1);
  peek.close();

  const store = openStore(file);
  const farm = createFarm(store);
  const loop = new FarmLoop(farm, 60_000);
  loop.start();
  onTestFinished(async () => {
    await loop.stop();
    await store.close();
  });
  const rows = (sql: string, ...args: unknown[]) => (store.sqlite.prepare(sql).get(...args) as { n: number }).n;
  await until("the interrupted job removed", () => rows("SELECT COUNT(*) AS n FROM server_state WHERE key LIKE 'job-creating:%'") === 0);
  expect(rows("SELECT COUNT(*) AS n FROM jobs WHERE id = ?", big.id)).toBe(0);
  expect(rows("SELECT COUNT(*) AS n FROM steps WHERE job_id = ?", big.id)).toBe(0);
  expect(rows("SELECT COUNT(*) AS n FROM tasks WHERE job_id = ?", big.id)).toBe(0);
  expect(store.sqlite.prepare("SELECT status, task_count FROM jobs").all()).toEqual([{ status: "READY", task_count: 6 }]);
  expect(rows("SELECT COUNT(*) AS n FROM tasks WHERE job_id = ?", small.jobId)).toBe(6);
});

/**
 * A job being created is not acknowledged: a server killed while writing one leaves it marked,
 * and the next start deletes it (and nothing else). Real subprocess, real database: a SQLite
 * file, or a PostgreSQL database of its own (engines-test-support.ts).
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { expect, it, onTestFinished } from "vitest";
import { createFarm } from "../context/farm";
import { openAsyncStore } from "../store/engine/open-store";
import { rawOf } from "../store/store-test-support";
import { testDatabaseTarget, testEngine } from "../store/engines-test-support";
import type { SqlValue } from "../store/engine/engine";
import { FarmLoop } from "./farm-loop";
import { INTERRUPTED_AFTER_MS } from "./persist-job";

const CHILD = fileURLToPath(new URL("./persist-job.test-child.ts", import.meta.url));

/**
 * Reads of the database while the child writes it, and after it was killed: SQLite's file opened
 * read-only (nothing migrates or writes beside the child), PostgreSQL's database through a store.
 */
async function peekAt(target: string): Promise<{ get: <R>(sql: string, ...params: SqlValue[]) => Promise<R | undefined>; close: () => Promise<void> }> {
  if (testEngine() === "sqlite") {
    const file = new Database(target, { readonly: true, fileMustExist: true });
    return {
      get: async <R>(sql: string, ...params: SqlValue[]) => file.prepare<SqlValue[], R>(sql).get(...params),
      close: async () => void file.close(),
    };
  }
  const store = await openAsyncStore(target, { poolSize: 1 });
  return { get: rawOf(store).get, close: () => store.close() };
}

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

it("deletes at the next start the job a killed server was creating, and keeps the one it had answered", { timeout: 300_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "loom-interrupted-"));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const target = await testDatabaseTarget(dir);
  const child = spawn(process.execPath, ["--import", "tsx", CHILD, target], { stdio: ["ignore", "pipe", "inherit"] });
  let answered = "";
  child.stdout.on("data", (chunk: Buffer) => (answered += chunk.toString()));
  const exited = new Promise((resolve) => child.once("exit", resolve));
  onTestFinished(() => void child.kill("SIGKILL"));

  await until("the small job's answer", () => answered.includes("\n"));
  const small = JSON.parse(answered) as { ok: boolean; jobId: string };
  expect(small).toMatchObject({ ok: true });
  const peek = await peekAt(target);
  onTestFinished(() => peek.close());
  const count = async (sql: string) => (await peek.get<{ n: number }>(sql))!.n;
  await until("the big job half written", async () => (await count("SELECT COUNT(*) AS n FROM tasks")) > 100_000);
  child.kill("SIGKILL");
  await exited;
  const big = (await peek.get<{ id: string; status: string; task_count: number }>("SELECT id, status, task_count FROM jobs WHERE id != ?", small.jobId))!;
  // Being created: listed as PENDING with no tasks counted, and never dispatchable.
  expect(big).toMatchObject({ status: "PENDING", task_count: 0 });
  expect(await count("SELECT COUNT(*) AS n FROM server_state WHERE key LIKE 'job-creating:%'")).toBe(1);
  await peek.close();

  const store = await openAsyncStore(target);
  // On PostgreSQL another replica may still be creating a job it marked: its marker counts as
  // interrupted once quiet for INTERRUPTED_AFTER_MS, so this start comes that much later.
  const later = testEngine() === "postgres" ? INTERRUPTED_AFTER_MS : 0;
  const farm = createFarm(store, { now: () => Date.now() + later });
  const loop = new FarmLoop(farm, 60_000);
  loop.start();
  onTestFinished(async () => {
    await loop.stop();
    await store.close();
  });
  const raw = rawOf(store);
  const rows = async (sql: string, ...args: SqlValue[]) => (await raw.get<{ n: number }>(sql, ...args))!.n;
  await until("the interrupted job removed", async () => (await rows("SELECT COUNT(*) AS n FROM server_state WHERE key LIKE 'job-creating:%'")) === 0);
  expect(await rows("SELECT COUNT(*) AS n FROM jobs WHERE id = ?", big.id)).toBe(0);
  expect(await rows("SELECT COUNT(*) AS n FROM steps WHERE job_id = ?", big.id)).toBe(0);
  expect(await rows("SELECT COUNT(*) AS n FROM tasks WHERE job_id = ?", big.id)).toBe(0);
  expect(await raw.all("SELECT status, task_count FROM jobs")).toEqual([{ status: "READY", task_count: 6 }]);
  expect(await rows("SELECT COUNT(*) AS n FROM tasks WHERE job_id = ?", small.jobId)).toBe(6);
});

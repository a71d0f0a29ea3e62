/**
 * Upgrading a database that holds a farm's data: a file at an earlier migration, with jobs and
 * steps in it, is opened by the current server (openStore migrates it) and keeps what it had.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { emptyCounts, type StatusCounts } from "../../lib/farm/statuses";
import { submitJob } from "../services/submit-job";
import { openStore, type SqliteStore } from "./connection";
import { countColumnsSql, countsFromRow, type CountColumnsRow } from "./status-counts";

const MIGRATIONS = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "drizzle");

interface Journal {
  entries: Array<{ tag: string }>;
}

/** A migrations folder holding the migrations up to and including `lastTag`. */
function migrationsUpTo(lastTag: string, dir: string): string {
  const journal = JSON.parse(readFileSync(join(MIGRATIONS, "meta", "_journal.json"), "utf8")) as Journal;
  const last = journal.entries.findIndex((entry) => entry.tag === lastTag);
  if (last < 0) throw new Error(`no migration ${lastTag}`);
  const entries = journal.entries.slice(0, last + 1);
  mkdirSync(join(dir, "meta"), { recursive: true });
  writeFileSync(join(dir, "meta", "_journal.json"), JSON.stringify({ ...journal, entries }));
  for (const entry of entries) copyFileSync(join(MIGRATIONS, `${entry.tag}.sql`), join(dir, `${entry.tag}.sql`));
  return dir;
}

/** A database file at migration `tag`, with `seed` run on it (the rows an older server wrote). */
function databaseAt(tag: string, dir: string, seed: (sqlite: Database.Database) => void): string {
  const file = join(dir, "loom.db");
  const sqlite = new Database(file);
  migrate(drizzle(sqlite), { migrationsFolder: migrationsUpTo(tag, join(dir, "migrations")) });
  seed(sqlite);
  sqlite.close();
  return file;
}

const counts = (patch: Partial<StatusCounts>): StatusCounts => ({ ...emptyCounts(), ...patch });

/** Rows as the server wrote them before counts were columns (migration 0007). */
function seedJsonCounts(sqlite: Database.Database): void {
  const job = sqlite.prepare(
    `INSERT INTO jobs (id, seq, name, template_text, template_format, environment_templates, parameters, priority, status, counts, task_count, max_retries_per_task, max_failed_tasks, submitted_at)
     VALUES (?, ?, ?, '', 'yaml', '[]', '{}', 50, ?, ?, ?, 2, 100, 0)`,
  );
  const step = sqlite.prepare(`INSERT INTO steps (id, job_id, step_index, name, dependencies, environment_stack, status, counts, task_count) VALUES (?, ?, ?, ?, '[]', '[]', ?, ?, ?)`);
  // Numbers need not be dense: job 10 and later were purged, so the next number is 10 anyway.
  job.run("job-a", 4, "a", "RUNNING", JSON.stringify(counts({ RUNNING: 2, READY: 5, SUCCEEDED: 3, NOT_COMPATIBLE: 1 })), 11);
  step.run("job-a:0", "job-a", 0, "Render", "RUNNING", JSON.stringify(counts({ RUNNING: 2, READY: 5, SUCCEEDED: 3 })), 10);
  step.run("job-a:1", "job-a", 1, "Encode", "NOT_COMPATIBLE", JSON.stringify(counts({ NOT_COMPATIBLE: 1 })), 1);
  // A job row with only some statuses in its JSON (the rest count 0).
  job.run("job-b", 9, "b", "SUCCEEDED", JSON.stringify({ SUCCEEDED: 7 }), 7);
  step.run("job-b:0", "job-b", 0, "Render", "SUCCEEDED", JSON.stringify({ SUCCEEDED: 7 }), 7);
}

const TEMPLATE = `specificationVersion: jobtemplate-2023-09
name: Next
steps:
- name: Render
  script:
    actions:
      onRun: {command: echo, args: [hi]}
`;

async function submit(store: SqliteStore): Promise<number> {
  const result = await submitJob(store, { template: { text: TEMPLATE, format: "yaml" }, parameterValues: {}, templateDir: null, workingDir: "/tmp", settings: {}, now: 1_700_000_000_000 });
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return store.sqlite.prepare<[string], { seq: number }>("SELECT seq FROM jobs WHERE id = ?").get(result.jobId)!.seq;
}

function storedCounts(store: SqliteStore, table: "jobs" | "steps", id: string): StatusCounts {
  return countsFromRow(store.sqlite.prepare<[string], CountColumnsRow>(`SELECT ${countColumnsSql()} FROM ${table} WHERE id = ?`).get(id)!);
}

describe("migrating a database with data in it", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "loom-migrations-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("moves the JSON counts into their columns and numbers the next job after the highest", async () => {
    const store = openStore(databaseAt("0007_retry_rules", dir, seedJsonCounts));
    try {
      expect(storedCounts(store, "jobs", "job-a")).toEqual(counts({ RUNNING: 2, READY: 5, SUCCEEDED: 3, NOT_COMPATIBLE: 1 }));
      expect(storedCounts(store, "steps", "job-a:0")).toEqual(counts({ RUNNING: 2, READY: 5, SUCCEEDED: 3 }));
      expect(storedCounts(store, "steps", "job-a:1")).toEqual(counts({ NOT_COMPATIBLE: 1 }));
      expect(storedCounts(store, "jobs", "job-b")).toEqual(counts({ SUCCEEDED: 7 }));
      expect(storedCounts(store, "steps", "job-b:0")).toEqual(counts({ SUCCEEDED: 7 }));
      const columns = (table: string) =>
        store.sqlite
          .prepare<[], { name: string }>(`SELECT name FROM pragma_table_info('${table}')`)
          .all()
          .map((c) => c.name);
      expect(columns("jobs")).not.toContain("counts");
      expect(columns("steps")).not.toContain("counts");
      expect(await submit(store)).toBe(10);
      expect(await submit(store)).toBe(11);
      expect(store.sqlite.pragma("foreign_key_check")).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it("numbers the first job 1 on a database that had none", async () => {
    const store = openStore(databaseAt("0007_retry_rules", dir, () => undefined));
    try {
      expect(await submit(store)).toBe(1);
    } finally {
      await store.close();
    }
  });
});

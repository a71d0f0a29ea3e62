/**
 * The PostgreSQL migrations (drizzle/postgres, generated from schema-postgres.ts) applied to a
 * fresh database on the test server: they create what the schema declares (with the declared
 * widths: a Windows exit code or a worker's log sequence number past 2^31 fits), job numbers come
 * from the engine, rows round-trip with the drizzle types, and claims have their partial index.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { asc, eq, lt } from "drizzle-orm";
import { drizzle, type NodePgDatabase } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emptyCounts } from "../../lib/farm/statuses";
import { freshTestDatabase, type TestDatabase } from "./postgres-test-support";
import * as schema from "./schema-postgres";
import { postgresShape, type ColumnShape } from "./schema-shape";
import { countsFromValues, countValues } from "./status-counts";

const MIGRATIONS = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "drizzle", "postgres");

/** information_schema's data_type for a column of that shape. */
function dataType(column: ColumnShape): string {
  if (column.kind === "integer") return { 16: "smallint", 32: "integer", 64: "bigint" }[column.bits!]!;
  if (column.kind === "real") return column.bits === 32 ? "real" : "double precision";
  return column.kind === "json" ? "text" : column.kind;
}

describe("PostgreSQL migrations on a fresh database", () => {
  let database: TestDatabase | undefined;
  let pool: pg.Pool | undefined;
  let db: NodePgDatabase<typeof schema>;
  const query = async <R extends pg.QueryResultRow>(text: string, values: unknown[] = []) => (await pool!.query<R>(text, values)).rows;

  beforeAll(async () => {
    database = await freshTestDatabase();
    pool = new pg.Pool({ connectionString: database.url, max: 2 });
    db = drizzle(pool, { schema });
    await migrate(db, { migrationsFolder: MIGRATIONS });
  }, 60_000);

  afterAll(async () => {
    await pool?.end();
    await database?.drop();
  }, 60_000);

  it("create every table, column (with its type and nullability) and index that schema-postgres.ts declares", async () => {
    const shape = postgresShape(schema);
    const columns = await query<{ table_name: string; column_name: string; is_nullable: string; data_type: string }>(
      "SELECT table_name, column_name, is_nullable, data_type FROM information_schema.columns WHERE table_schema = 'public'",
    );
    const actual: Record<string, Record<string, string>> = {};
    for (const c of columns) (actual[c.table_name] ??= {})[c.column_name] = `${c.data_type}${c.is_nullable === "NO" ? " not null" : ""}`;
    const declared = Object.fromEntries(
      Object.entries(shape).map(([table, t]) => [table, Object.fromEntries(Object.entries(t.columns).map(([name, c]) => [name, `${dataType(c)}${c.notNull ? " not null" : ""}`]))]),
    );
    expect(actual).toEqual(declared);
    expect(actual.session_actions!.exit_code).toBe("bigint");

    const indexes = await query<{ tablename: string; indexname: string; indexdef: string }>("SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public'");
    const names = new Set(indexes.map((i) => `${i.tablename}.${i.indexname}`));
    for (const [table, t] of Object.entries(shape)) {
      for (const index of Object.keys(t.indexes)) expect(names, `index ${table}.${index}`).toContain(`${table}.${index}`);
      for (const [column, c] of Object.entries(t.columns)) if (c.unique) expect(names, `unique ${table}.${column}`).toContain(`${table}.${table}_${column}_unique`);
    }
    expect(indexes.find((i) => i.indexname === "tasks_ready")?.indexdef).toMatch(/\(step_id, task_index\) WHERE \(status = 'READY'::text\)$/);
  });

  it("number jobs from the identity: one INSERT each, never the same number twice, even once its row is gone", async () => {
    const next = async () => (await db.insert(schema.jobNumbers).values({}).returning({ number: schema.jobNumbers.number }))[0]!.number;
    expect(await next()).toBe(1);
    expect(await next()).toBe(2);
    await db.delete(schema.jobNumbers).where(lt(schema.jobNumbers.number, 3));
    const numbers = await Promise.all([next(), next(), next()]);
    expect(numbers.sort()).toEqual([3, 4, 5]);
    await db.delete(schema.jobNumbers);
    expect(await next()).toBe(6);
  });

  it("store rows as the drizzle types say: JSON as text, flags as booleans, epoch milliseconds past 2^31, counts as columns", async () => {
    const now = 1_700_000_000_123;
    await db.insert(schema.pools).values({ id: "pool-1", name: "default", tokenHash: "h", createdAt: now });
    await db.insert(schema.jobs).values({
      id: "job-1",
      seq: 1,
      name: "Render",
      templateText: "name: Render",
      templateFormat: "yaml",
      environmentTemplates: [{ text: "x", format: "yaml" }],
      parameters: { Frames: { type: "INT", value: "10" } },
      priority: 50,
      status: "READY",
      ...countValues({ ...emptyCounts(), READY: 2 }),
      taskCount: 2,
      maxRetriesPerTask: 2,
      maxFailedTasks: 100,
      submittedAt: now,
    });
    await db.insert(schema.steps).values({
      id: "job-1:0",
      jobId: "job-1",
      stepIndex: 0,
      name: "Render",
      dependencies: [],
      hostRequirements: null,
      environmentStack: "[]",
      status: "READY",
      ...countValues({ ...emptyCounts(), READY: 2 }),
      taskCount: 2,
    });
    const inserted = await db
      .insert(schema.tasks)
      .values([0, 1].map((taskIndex) => ({ jobId: "job-1", stepId: "job-1:0", taskIndex, parameters: "{}", status: "READY" as const, progress: 0.25 })))
      .returning({ id: schema.tasks.id });
    expect(inserted.map((t) => typeof t.id)).toEqual(["number", "number"]);

    const [job] = await db.select().from(schema.jobs).where(eq(schema.jobs.id, "job-1"));
    expect(job).toMatchObject({ parameters: { Frames: { type: "INT", value: "10" } }, environmentTemplates: [{ text: "x", format: "yaml" }], suspended: false, submittedAt: now });
    expect(countsFromValues(job!)).toEqual({ ...emptyCounts(), READY: 2 });
    const [raw] = await query<{ parameters: string; submitted_at: string }>("SELECT parameters, submitted_at::text FROM jobs WHERE id = 'job-1'");
    expect(raw).toEqual({ parameters: '{"Frames":{"type":"INT","value":"10"}}', submitted_at: String(now) });
    expect((await db.select().from(schema.pools))[0]).toMatchObject({ enabled: true, tokenGeneration: 1, createdAt: now });
    const tasks = await db.select().from(schema.tasks).orderBy(asc(schema.tasks.taskIndex));
    expect(tasks.map((t) => [t.taskIndex, t.status, t.progress])).toEqual([
      [0, "READY", 0.25],
      [1, "READY", 0.25],
    ]);

    // Counts change by arithmetic in one statement, as task-state.ts does on SQLite.
    await query("UPDATE steps SET count_ready = count_ready + $1, count_assigned = count_assigned + $2 WHERE id = $3", [-1, 1, "job-1:0"]);
    const [step] = await db.select().from(schema.steps);
    expect(countsFromValues(step!)).toEqual({ ...emptyCounts(), READY: 1, ASSIGNED: 1 });
  });

  it("have a partial index of READY tasks that serves a claim in task order, without a sort", async () => {
    await query(
      `INSERT INTO tasks (job_id, step_id, task_index, parameters, status)
       SELECT 'job-1', 'job-1:0', i, '{}', CASE WHEN i % 500 = 0 THEN 'READY' ELSE 'SUCCEEDED' END FROM generate_series(2, 20001) AS i`,
    );
    await query("ANALYZE tasks");
    const claim = "SELECT id FROM tasks WHERE step_id = $1 AND status = 'READY' ORDER BY task_index LIMIT 4 FOR UPDATE SKIP LOCKED";
    // tasks_dispatch (step_id, status, task_index, both engines) serves this shape as well and
    // the planner may take either: without it (dropped in a transaction rolled back), the plan
    // shows what the partial index alone gives.
    const client = await pool!.connect();
    try {
      await client.query("BEGIN");
      await client.query("DROP INDEX tasks_dispatch");
      const plan = (await client.query<{ "QUERY PLAN": string }>(`EXPLAIN ${claim}`, ["job-1:0"])).rows.map((r) => r["QUERY PLAN"]).join("\n");
      expect(plan).toMatch(/Index Scan using tasks_ready/);
      expect(plan).not.toMatch(/Sort/);
      expect((await client.query(claim, ["job-1:0"])).rows).toHaveLength(4);
    } finally {
      await client.query("ROLLBACK");
      client.release();
    }
    expect(await query("SELECT 1 FROM pg_indexes WHERE indexname = 'tasks_dispatch'")).toHaveLength(1);
  });

  it("hold the numbers SQLite holds: a Windows exit code, a log sequence number past 2^31, no limit on failed tasks", async () => {
    const now = 1_700_000_000_123;
    await db.insert(schema.workers).values({ id: "worker-1", poolId: "pool-1", name: "w1", status: "IDLE", capabilities: {}, lastHeartbeatAt: now, registeredAt: now });
    await db.insert(schema.sessions).values({ id: "session-1", jobId: "job-1", workerId: "worker-1", leaseEpoch: 1, state: "ACTIVE", reserved: {}, startedAt: now });
    // 0xC0000005 (access violation) as Windows reports it, unsigned: past 2^31.
    const exitCodes = [0xffffffff, 0xc0000005, -1];
    await db
      .insert(schema.sessionActions)
      .values(exitCodes.map((exitCode, seq) => ({ id: `action-${seq}`, sessionId: "session-1", seq, kind: "TASK_RUN" as const, status: "FAILED" as const, exitCode })));
    const seq = 2 ** 40;
    await db.insert(schema.logLines).values({ sessionId: "session-1", jobId: "job-1", seq, actionId: "action-0", time: now, line: "late line" });
    await db
      .update(schema.sessions)
      .set({ logDropped: 2 ** 33 })
      .where(eq(schema.sessions.id, "session-1"));
    await db.update(schema.jobs).set({ maxFailedTasks: Number.MAX_SAFE_INTEGER }).where(eq(schema.jobs.id, "job-1"));

    const actions = await db.select().from(schema.sessionActions).orderBy(asc(schema.sessionActions.seq));
    expect(actions.map((a) => a.exitCode)).toEqual(exitCodes);
    expect((await db.select().from(schema.logLines))[0]).toMatchObject({ seq, time: now });
    expect((await db.select().from(schema.sessions))[0]!.logDropped).toBe(2 ** 33);
    expect((await db.select().from(schema.jobs))[0]!.maxFailedTasks).toBe(Number.MAX_SAFE_INTEGER);
  });

  it("are applied once: migrating again changes nothing", async () => {
    await migrate(db, { migrationsFolder: MIGRATIONS });
    const journal = JSON.parse(readFileSync(resolve(MIGRATIONS, "meta", "_journal.json"), "utf8")) as { entries: unknown[] };
    const applied = await query<{ n: string }>("SELECT COUNT(*)::text AS n FROM drizzle.__drizzle_migrations");
    expect(Number(applied[0]!.n)).toBe(journal.entries.length);
    expect((await query<{ n: string }>("SELECT COUNT(*)::text AS n FROM jobs"))[0]!.n).toBe("1");
  });
});

/**
 * The SQLite schema (schema.ts) and the PostgreSQL one (schema-postgres.ts) declare the same
 * tables, columns, keys and indexes, and give rows of the same TypeScript types; what one engine
 * has on purpose and the other not is listed below, and nothing else may differ.
 */
import type { InferInsertModel, InferSelectModel } from "drizzle-orm";
import { index, integer, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { describe, expect, expectTypeOf, it } from "vitest";
import * as postgres from "./schema-postgres";
import * as sqlite from "./schema";
import { postgresShape, shapeDifferences, sqliteShape, type EngineOnly, type SchemaShape } from "./schema-shape";

const SQLITE_ONLY: EngineOnly = { tables: [], columns: [], indexes: [] };
const POSTGRES_ONLY: EngineOnly = {
  tables: [],
  columns: [],
  // The partial index of READY tasks that SKIP LOCKED claims walk (SQLite claims under its single writer).
  indexes: ["tasks.tasks_ready"],
};

const NAMES = { a: "SQLite", b: "PostgreSQL" };

function differences(a: SchemaShape, b: SchemaShape): string[] {
  return shapeDifferences(a, b, NAMES, SQLITE_ONLY, POSTGRES_ONLY);
}

describe("the two schemas", () => {
  const sqliteTables = sqliteShape(sqlite);
  const postgresTables = postgresShape(postgres);

  it("declare the same tables, columns, keys and indexes, but for the listed engine-only ones", () => {
    expect(Object.keys(sqliteTables).length).toBeGreaterThanOrEqual(17);
    expect(differences(sqliteTables, postgresTables)).toEqual([]);
  });

  it("read what they declare: kinds, keys, generated numbers, partial indexes, foreign keys", () => {
    expect(sqliteTables.tasks!.columns.id).toEqual({ kind: "integer", notNull: true, unique: false, default: null, generated: true });
    expect(postgresTables.tasks!.columns.progress!.kind).toBe("real");
    expect(postgresTables.workers!.columns.capabilities!.kind).toBe("json");
    expect(sqliteTables.pools!.columns.enabled).toEqual({ kind: "boolean", notNull: true, unique: false, default: "true", generated: false });
    expect(sqliteTables.jobs!.columns.count_not_compatible).toEqual({ kind: "integer", notNull: true, unique: false, default: "0", generated: false });
    expect(postgresTables.job_numbers!.columns.number!.generated).toBe(true);
    expect(sqliteTables.worker_job_failures!.primaryKey).toEqual(["job_id", "worker_id"]);
    expect(sqliteTables.session_actions!.indexes.session_actions_open).toEqual({ columns: ["session_id", "seq"], unique: false, where: "status IN ('ASSIGNED', 'RUNNING')" });
    expect(postgresTables.tasks!.indexes.tasks_ready).toEqual({ columns: ["step_id", "task_index"], unique: false, where: "status = 'READY'" });
    expect(postgresTables.tasks!.foreignKeys).toEqual(["job_id -> jobs(id) on delete cascade", "step_id -> steps(id) on delete cascade"]);
  });

  it("give rows of the same TypeScript types", () => {
    expectTypeOf<InferSelectModel<typeof postgres.jobs>>().toEqualTypeOf<InferSelectModel<typeof sqlite.jobs>>();
    expectTypeOf<InferSelectModel<typeof postgres.steps>>().toEqualTypeOf<InferSelectModel<typeof sqlite.steps>>();
    expectTypeOf<InferSelectModel<typeof postgres.tasks>>().toEqualTypeOf<InferSelectModel<typeof sqlite.tasks>>();
    expectTypeOf<InferSelectModel<typeof postgres.workers>>().toEqualTypeOf<InferSelectModel<typeof sqlite.workers>>();
    expectTypeOf<InferSelectModel<typeof postgres.pools>>().toEqualTypeOf<InferSelectModel<typeof sqlite.pools>>();
    expectTypeOf<InferSelectModel<typeof postgres.sessions>>().toEqualTypeOf<InferSelectModel<typeof sqlite.sessions>>();
    expectTypeOf<InferSelectModel<typeof postgres.sessionActions>>().toEqualTypeOf<InferSelectModel<typeof sqlite.sessionActions>>();
    expectTypeOf<InferSelectModel<typeof postgres.logLines>>().toEqualTypeOf<InferSelectModel<typeof sqlite.logLines>>();
    expectTypeOf<InferSelectModel<typeof postgres.users>>().toEqualTypeOf<InferSelectModel<typeof sqlite.users>>();
    expectTypeOf<InferSelectModel<typeof postgres.authSessions>>().toEqualTypeOf<InferSelectModel<typeof sqlite.authSessions>>();
    expectTypeOf<InferSelectModel<typeof postgres.accessTokens>>().toEqualTypeOf<InferSelectModel<typeof sqlite.accessTokens>>();
    expectTypeOf<InferSelectModel<typeof postgres.auditLog>>().toEqualTypeOf<InferSelectModel<typeof sqlite.auditLog>>();
    expectTypeOf<InferSelectModel<typeof postgres.serverState>>().toEqualTypeOf<InferSelectModel<typeof sqlite.serverState>>();
    expectTypeOf<InferSelectModel<typeof postgres.requests>>().toEqualTypeOf<InferSelectModel<typeof sqlite.requests>>();
    expectTypeOf<InferSelectModel<typeof postgres.workerJobFailures>>().toEqualTypeOf<InferSelectModel<typeof sqlite.workerJobFailures>>();
    expectTypeOf<InferSelectModel<typeof postgres.templates>>().toEqualTypeOf<InferSelectModel<typeof sqlite.templates>>();
    expectTypeOf<InferSelectModel<typeof postgres.jobNumbers>>().toEqualTypeOf<InferSelectModel<typeof sqlite.jobNumbers>>();
    expectTypeOf<InferInsertModel<typeof postgres.jobs>>().toEqualTypeOf<InferInsertModel<typeof sqlite.jobs>>();
    expectTypeOf<InferInsertModel<typeof postgres.tasks>>().toEqualTypeOf<InferInsertModel<typeof sqlite.tasks>>();
  });
});

describe("a planted difference", () => {
  const sqliteTables = sqliteShape(sqlite);
  const postgresTables = postgresShape(postgres);

  it("in a drizzle table is found: a column made nullable, an index on another column, one made unique, one added", () => {
    const templates = pgTable(
      "templates",
      {
        id: text("id").primaryKey(),
        name: text("name").notNull(),
        kind: text("kind").notNull(),
        format: text("format").notNull(),
        text: text("text").notNull(),
        parameterValues: text("parameter_values").notNull(),
        errorCount: integer("error_count"),
        createdAt: integer("created_at").notNull(),
        updatedAt: integer("updated_at").notNull(),
        ownerId: text("owner_id"),
      },
      (t) => [uniqueIndex("templates_name").on(t.name), uniqueIndex("templates_updated").on(t.createdAt), index("templates_owner").on(t.ownerId)],
    );
    expect(differences(sqliteTables, postgresShape({ ...postgres, templates }))).toEqual([
      "index templates.templates_owner: only in PostgreSQL",
      'column templates.parameter_values: kind is "json" in SQLite, "text" in PostgreSQL',
      "column templates.error_count: notNull is true in SQLite, false in PostgreSQL",
      'index templates.templates_updated: {"columns":["updated_at"],"unique":false,"where":null} in SQLite, {"columns":["created_at"],"unique":true,"where":null} in PostgreSQL',
    ]);
  });

  it("in a copy of a shape is found: a table, a column, an index, a key, a default, a foreign key, a partial condition", () => {
    const planted = structuredClone(postgresTables);
    delete planted.requests;
    delete planted.jobs!.columns.count_failed;
    planted.steps!.columns.extra = { kind: "text", notNull: false, unique: false, default: null, generated: false };
    planted.tasks!.columns.status!.default = '"READY"';
    planted.jobs!.columns.seq!.unique = false;
    planted.log_lines!.columns.id!.generated = false;
    delete planted.workers!.indexes.workers_status;
    planted.session_actions!.indexes.session_actions_env!.where = "environment_id IS NULL";
    planted.worker_job_failures!.primaryKey = ["job_id"];
    planted.sessions!.foreignKeys = planted.sessions!.foreignKeys.filter((fk) => !fk.startsWith("worker_id"));
    expect(differences(sqliteTables, planted).sort()).toEqual(
      [
        "table requests: only in SQLite",
        "column jobs.count_failed: only in SQLite",
        "column steps.extra: only in PostgreSQL",
        "index workers.workers_status: only in SQLite",
        'column tasks.status: default is null in SQLite, "\\"READY\\"" in PostgreSQL',
        "column jobs.seq: unique is true in SQLite, false in PostgreSQL",
        "column log_lines.id: generated is true in SQLite, false in PostgreSQL",
        `index session_actions.session_actions_env: {"columns":["session_id","seq"],"unique":false,"where":"environment_id IS NOT NULL"} in SQLite, {"columns":["session_id","seq"],"unique":false,"where":"environment_id IS NULL"} in PostgreSQL`,
        "table worker_job_failures: primary key (job_id, worker_id) in SQLite, (job_id) in PostgreSQL",
        `table sessions: foreign keys ["job_id -> jobs(id) on delete cascade","worker_id -> workers(id) on delete no action"] in SQLite, ["job_id -> jobs(id) on delete cascade"] in PostgreSQL`,
      ].sort(),
    );
  });

  it("an engine-only index that the other engine also has, or that is gone, is reported", () => {
    const withReady = structuredClone(sqliteTables);
    withReady.tasks!.indexes.tasks_ready = postgresTables.tasks!.indexes.tasks_ready!;
    expect(differences(withReady, postgresTables)).toEqual(["index tasks.tasks_ready: listed as PostgreSQL-only, but it is not"]);
    const withoutReady = structuredClone(postgresTables);
    delete withoutReady.tasks!.indexes.tasks_ready;
    expect(differences(sqliteTables, withoutReady)).toEqual(["index tasks.tasks_ready: listed as PostgreSQL-only, but it is not"]);
  });
});

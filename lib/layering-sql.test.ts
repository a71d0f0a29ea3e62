/**
 * The SQL rule of lib/layering.test.ts can fail: a planted file for every way SQL can show up
 * outside server/store and server/db, and the look-alikes (English, `app.prepare()`, type imports)
 * that must not count. layering.test.ts checks the repository itself.
 */
import { builtinModules } from "node:module";
import { describe, expect, it } from "vitest";
import { sqlFindings } from "./layering-sql-test-support";

const options = { nodeBuiltins: new Set(builtinModules) };

describe("the SQL rule can fail", () => {
  it("SQL outside server/store and server/db: prepared statements, drizzle query building and SQL text", () => {
    const sql = (path: string, ...lines: string[]) => sqlFindings({ path, source: lines.join("\n") }, options);
    expect(sql("server/services/example.ts", 'const row = farm.sqlite.prepare<[string], { id: string }>("SELECT id FROM jobs WHERE id = ?").get(id);')).toEqual([".prepare(", "SQL text"]);
    expect(sql("server/queries/example.ts", 'import { eq } from "drizzle-orm";', "const rows = farm.db.select().from(jobs).where(eq(jobs.id, id)).all();")).toEqual([
      "drizzle query",
      "drizzle-orm import",
    ]);
    expect(sql("server/services/example.ts", "const stmt = `\n  UPDATE tasks SET status = ? WHERE id = ?`;")).toEqual(["SQL text"]);
    expect(sql("server/router/example.ts", "const total = sql`count(*)`;")).toEqual(["sql`…`"]);
    expect(sql("server/store/jobs.ts", 'const find = sqlite.prepare("SELECT * FROM jobs");')).toEqual([]);
    // Server test support is held to it too; test files themselves are not.
    expect(sql("server/scheduler/example-test-support.ts", 'const all = sqlite.prepare("SELECT id FROM tasks");')).toEqual([".prepare(", "SQL text"]);
    expect(sql("server/scheduler/example.test.ts", 'const all = sqlite.prepare("SELECT id FROM tasks");')).toEqual([]);
    expect(sql("server/db/connection.ts", 'sqlite.prepare("PRAGMA journal_mode")')).toEqual([]);
    expect(sql("server/services/example.test.ts", 'farm.sqlite.prepare("DELETE FROM jobs").run();')).toEqual([]);
    expect(sql("server/services/example.ts", 'import { jobs } from "../db/schema";', "const rows = farm.store.drizzle.select().from(jobs).all();")).toEqual(["drizzle schema import"]);
    expect(sql("server/router/example.ts", 'import { pools } from "@/server/db/schema-postgres";', 'import { sql as raw } from "drizzle-orm/sqlite-core";')).toEqual([
      "drizzle schema import",
      "drizzle-orm import",
    ]);
    expect(sql("server/queries/example.ts", 'import type { jobs } from "../db/schema";', "type Job = RawPick<typeof jobs, 'id'>;")).toEqual([]);
    expect(sql("server/store/example.ts", 'import { jobs } from "../db/schema";')).toEqual([]);
    expect(sql("server/services/example.test.ts", 'import { jobs } from "../db/schema";')).toEqual([]);
    expect(
      sql("server/web/example.ts", "await app.prepare();", "// farm.sqlite.prepare(...) lives in server/store", 'const label = "Select a job";', 'import type { SQL } from "drizzle-orm";'),
    ).toEqual([]);
  });

  it("SQL outside server/store on the async unit of work: statements handed to a tx, module constants, named statements, a raw connection", () => {
    const sql = (path: string, ...lines: string[]) => sqlFindings({ path, source: lines.join("\n") }, options);
    expect(sql("server/services/example.ts", 'const row = await tx.get<{ id: string }>("SELECT id FROM jobs WHERE id = ?", [id]);')).toEqual(["SQL text"]);
    expect(sql("server/scheduler/example.ts", "await tx.run(`UPDATE tasks SET status = 'READY' WHERE step_id = ?`, [stepId]);")).toEqual(["SQL text"]);
    // A repository's habit (module constants, a named statement for the hot path) is still SQL outside server/store.
    expect(
      sql("server/services/example.ts", "const CANDIDATES = `", "  SELECT t.id FROM tasks t WHERE t.status = 'READY' LIMIT ?`;", "export const rows = (tx: ReadTx) => tx.all(CANDIDATES, [10]);"),
    ).toEqual(["SQL text"]);
    expect(
      sql("server/services/example.ts", 'import { statement } from "../store/repository";', 'const NEXT = statement<{ id: number }>("claims.next", "SELECT id FROM tasks WHERE status = ? LIMIT 1");'),
    ).toEqual(["named statement", "SQL text"]);
    // Its text assembled where no shape shows: the named statement still gives it away.
    expect(sql("server/queries/example.ts", 'const NEXT = statement("claims.next", [verb, columns, from].join(" "));')).toEqual(["named statement"]);
    expect(sql("server/services/example-test-support.ts", 'sqliteOf(farm.store).prepare("DELETE FROM jobs").run();')).toEqual([".prepare(", "SQL text"]);
    expect(sql("server/farm-tests/example-harness.ts", 'const rows = await farm.store.read((tx) => tx.all("SELECT id, status FROM workers"));')).toEqual(["SQL text"]);
    // The store itself, and test files, may.
    expect(sql("server/store/claims.ts", 'const NEXT = statement<{ id: number }>("claims.next", "SELECT id FROM tasks WHERE status = ? LIMIT 1");')).toEqual([]);
    expect(sql("server/store/store-test-support.ts", "export const plant = (tx: Tx) => tx.run(\"UPDATE users SET kind = 'service'\");")).toEqual([]);
    expect(sql("server/farm-tests/example.test.ts", 'await farm.store.transaction((tx) => tx.run("UPDATE workers SET credential_hash = ? WHERE id = ?", [hash, id]));')).toEqual([]);
    // Look-alikes: a method or another name ending in "statement", and the words in JSX text.
    expect(sql("server/services/example.ts", "const text = report.statement(row);", "const s = bankStatement(account);", "return <p>Read the statement (it is short).</p>;")).toEqual([]);
  });

  it("SQL text in any case, known by the statement's shape, since its first word alone is ordinary English", () => {
    const sql = (...lines: string[]) => sqlFindings({ path: "server/services/example.ts", source: lines.join("\n") }, options);
    for (const statement of [
      "delete from jobs",
      "Delete From jobs Where id = ?",
      "select id, name from jobs where id = ?",
      "select count(*)::int as n from tasks t join steps s on s.id = t.step_id",
      "select 1 from pools where id = ?",
      "insert into jobs (id, name) values (?, ?)",
      "insert or ignore into tasks values (?)",
      "update tasks set status = ? where id = ?",
      "create table scratch (id integer)",
      "drop table if exists scratch",
      "pragma journal_mode = wal",
      "release savepoint unit_1",
      "with recent as (select id from jobs)",
      "  (select id from jobs)",
    ]) {
      expect([statement, sql(`db.exec(${JSON.stringify(statement)});`)]).toEqual([statement, ["SQL text"]]);
    }
    expect(sql("const remove = `delete from ${table} where id = ?`;")).toEqual(["SQL text"]);
    expect(sql("const move = `update tasks set ${assignments} where id = ?`;")).toEqual(["SQL text"]);
    expect(sql("const page = `select ${columns} from jobs ${where}`;")).toEqual(["SQL text"]);
    for (const english of [
      "Select a file",
      "Select all from the list",
      "Select a pool from the list below",
      "select jobs from the table, then press Delete",
      "Update the pool's settings",
      "Insert into the editor",
      "Release notes",
      "Create table of contents",
      "Drop index cards here",
      "With care as always",
      "Deleted from history",
    ]) {
      expect([english, sql(`const label = ${JSON.stringify(english)};`)]).toEqual([english, []]);
    }
  });
});

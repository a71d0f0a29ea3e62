/**
 * Each schema is what its migrations build: drizzle-kit, asked to generate a migration from the
 * last snapshot (drizzle/meta, drizzle/postgres/meta) to the schema module as it is now, finds
 * nothing to write. A schema change without its generated migration fails here, before any
 * database sees it. No database is needed: drizzle-kit compares its JSON descriptions.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { generateDrizzleJson, generateMigration, generateSQLiteDrizzleJson, generateSQLiteMigration } from "drizzle-kit/api";
import { describe, expect, it } from "vitest";
import * as postgres from "./schema-postgres";
import * as sqlite from "./schema";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The snapshot drizzle-kit wrote with the folder's last migration. */
function lastSnapshot(folder: string): { id: string; tables: Record<string, { columns: Record<string, unknown> }> } {
  const journal = JSON.parse(readFileSync(resolve(ROOT, folder, "meta", "_journal.json"), "utf8")) as { entries: Array<{ idx: number; tag: string }> };
  const last = journal.entries.at(-1)!;
  return JSON.parse(readFileSync(resolve(ROOT, folder, "meta", `${last.tag.split("_")[0]}_snapshot.json`), "utf8"));
}

/**
 * Tables and columns, as `table.column`. drizzle-kit asks on a terminal whether a table or
 * column that is gone and another that is new were a rename: compared first, such a
 * difference fails here with its names instead of waiting for an answer.
 */
function columnNames(snapshot: { tables: Record<string, { columns: Record<string, unknown> }> }): string[] {
  return Object.entries(snapshot.tables)
    .flatMap(([key, table]) => Object.keys(table.columns).map((column) => `${key.replace(/^public\./, "")}.${column}`))
    .sort();
}

describe("each schema against its last migration's snapshot", () => {
  it("SQLite (drizzle/): drizzle-kit generates no statement", async () => {
    const previous = lastSnapshot("drizzle");
    const current = await generateSQLiteDrizzleJson(sqlite, previous.id);
    expect(columnNames(current)).toEqual(columnNames(previous));
    expect(await generateSQLiteMigration(previous as never, current)).toEqual([]);
  });

  it("PostgreSQL (drizzle/postgres/): drizzle-kit generates no statement", async () => {
    const previous = lastSnapshot("drizzle/postgres");
    const current = generateDrizzleJson(postgres, previous.id);
    expect(columnNames(current)).toEqual(columnNames(previous));
    expect(await generateMigration(previous as never, current)).toEqual([]);
  });

  it("a change made to a schema alone is found: SQLite, a column added", async () => {
    const previous = lastSnapshot("drizzle");
    const changed = structuredClone(await generateSQLiteDrizzleJson(sqlite, previous.id)) as unknown as { tables: Record<string, { columns: Record<string, unknown> }> };
    changed.tables.templates!.columns.note = { name: "note", type: "text", primaryKey: false, notNull: false, autoincrement: false };
    expect(await generateSQLiteMigration(previous as never, changed as never)).toEqual(["ALTER TABLE `templates` ADD `note` text;"]);
  });

  it("a change made to a schema alone is found: PostgreSQL, a column widened, one added", async () => {
    const previous = lastSnapshot("drizzle/postgres");
    const current = generateDrizzleJson(postgres, previous.id) as unknown as { tables: Record<string, { columns: Record<string, { type: string }> }> };
    const changed = structuredClone(current);
    changed.tables["public.session_actions"]!.columns.seq!.type = "bigint";
    changed.tables["public.templates"]!.columns.note = { name: "note", type: "text", primaryKey: false, notNull: false } as never;
    const statements = await generateMigration(previous as never, changed as never);
    expect(statements).toContain('ALTER TABLE "session_actions" ALTER COLUMN "seq" SET DATA TYPE bigint;');
    expect(statements).toContain('ALTER TABLE "templates" ADD COLUMN "note" text;');
    expect(statements).toHaveLength(2);
  });
});

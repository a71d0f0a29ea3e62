/**
 * What a drizzle schema declares, in terms both dialects share: tables, their columns (kind,
 * nullability, key, uniqueness, default, generated numbers), primary keys, indexes (columns,
 * uniqueness, partial condition) and foreign keys. schema-parity.test.ts compares the SQLite
 * schema's shape with the PostgreSQL one's, so a change made to one and not the other fails.
 */
import { getTableName, is, type SQL } from "drizzle-orm";
import { getTableConfig as pgTableConfig, PgDialect, PgTable } from "drizzle-orm/pg-core";
import { getTableConfig as sqliteTableConfig, SQLiteSyncDialect, SQLiteTable } from "drizzle-orm/sqlite-core";

/** A column's kind across dialects: SQLite integers are PostgreSQL integer or bigint; flags and JSON are kinds of their own. */
export type ColumnKind = "text" | "json" | "integer" | "real" | "boolean";

export interface ColumnShape {
  kind: ColumnKind;
  notNull: boolean;
  unique: boolean;
  /** The default as JSON (null: none). */
  default: string | null;
  /** Numbered by the engine (SQLite AUTOINCREMENT, PostgreSQL identity). */
  generated: boolean;
}

export interface IndexShape {
  columns: string[];
  unique: boolean;
  /** A partial index's condition, whitespace collapsed (null: the whole table). */
  where: string | null;
}

export interface TableShape {
  columns: Record<string, ColumnShape>;
  primaryKey: string[];
  indexes: Record<string, IndexShape>;
  /** `job_id -> jobs(id) on delete cascade` */
  foreignKeys: string[];
}

export type SchemaShape = Record<string, TableShape>;

/** What one engine declares and the other does not, on purpose: `table`, `table.column`, `table.index`. */
export interface EngineOnly {
  tables: readonly string[];
  columns: readonly string[];
  indexes: readonly string[];
}

interface RawColumn {
  name: string;
  notNull: boolean;
  primary: boolean;
  isUnique: boolean;
  default: unknown;
  dataType: string;
  getSQLType(): string;
}

function sqlText(where: SQL | undefined, dialect: { sqlToQuery(sql: SQL): { sql: string } }): string | null {
  return where ? dialect.sqlToQuery(where).sql.replace(/\s+/g, " ").trim() : null;
}

function defaultText(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

function indexColumnName(column: unknown): string {
  const name = (column as { name?: string }).name;
  return typeof name === "string" ? name : "<expression>";
}

function sqliteKind(column: RawColumn): ColumnKind {
  if (column.dataType === "boolean") return "boolean";
  if (column.dataType === "json") return "json";
  const type = column.getSQLType();
  return type === "real" ? "real" : type === "text" ? "text" : "integer";
}

function pgKind(column: RawColumn): ColumnKind {
  if (column.dataType === "boolean") return "boolean";
  // JSON is text written and read through a custom type (schema-postgres.ts jsonText).
  if (column.dataType === "custom" && column.getSQLType() === "text") return "json";
  const type = column.getSQLType();
  if (type === "double precision") return "real";
  if (type === "integer" || type === "bigint") return "integer";
  return type === "text" ? "text" : (type as ColumnKind);
}

type ForeignKeyLike = { reference(): { columns: Array<{ name: string }>; foreignColumns: Array<{ name: string }>; foreignTable: unknown }; onDelete: string | undefined };

function foreignKeyText(fk: ForeignKeyLike): string {
  const ref = fk.reference();
  const table = getTableName(ref.foreignTable as Parameters<typeof getTableName>[0]);
  return `${ref.columns.map((c) => c.name).join(", ")} -> ${table}(${ref.foreignColumns.map((c) => c.name).join(", ")}) on delete ${fk.onDelete ?? "no action"}`;
}

/** The shape of a SQLite schema module (every SQLiteTable it exports). */
export function sqliteShape(schema: Record<string, unknown>): SchemaShape {
  const dialect = new SQLiteSyncDialect();
  const shape: SchemaShape = {};
  for (const value of Object.values(schema)) {
    if (!is(value, SQLiteTable)) continue;
    const config = sqliteTableConfig(value);
    const columns: Record<string, ColumnShape> = {};
    for (const column of config.columns as unknown as Array<RawColumn & { autoIncrement?: boolean }>) {
      columns[column.name] = { kind: sqliteKind(column), notNull: column.notNull, unique: column.isUnique, default: defaultText(column.default), generated: column.autoIncrement === true };
    }
    const indexes: Record<string, IndexShape> = {};
    for (const { config: index } of config.indexes) indexes[index.name] = { columns: index.columns.map(indexColumnName), unique: index.unique, where: sqlText(index.where, dialect) };
    shape[config.name] = {
      columns,
      primaryKey: [...config.columns.filter((c) => c.primary).map((c) => c.name), ...config.primaryKeys.flatMap((pk) => pk.columns.map((c) => c.name))],
      indexes,
      foreignKeys: config.foreignKeys.map((fk) => foreignKeyText(fk as unknown as ForeignKeyLike)).sort(),
    };
  }
  return shape;
}

/** The shape of a PostgreSQL schema module (every PgTable it exports). */
export function postgresShape(schema: Record<string, unknown>): SchemaShape {
  const dialect = new PgDialect();
  const shape: SchemaShape = {};
  for (const value of Object.values(schema)) {
    if (!is(value, PgTable)) continue;
    const config = pgTableConfig(value);
    const columns: Record<string, ColumnShape> = {};
    for (const column of config.columns as unknown as Array<RawColumn & { generatedIdentity?: unknown }>) {
      columns[column.name] = { kind: pgKind(column), notNull: column.notNull, unique: column.isUnique, default: defaultText(column.default), generated: column.generatedIdentity !== undefined };
    }
    const indexes: Record<string, IndexShape> = {};
    for (const { config: index } of config.indexes) {
      if (!index.name) throw new Error(`an index of ${config.name} has no name: name every index, as SQLite must`);
      indexes[index.name] = { columns: index.columns.map(indexColumnName), unique: index.unique, where: sqlText(index.where, dialect) };
    }
    shape[config.name] = {
      columns,
      primaryKey: [...config.columns.filter((c) => c.primary).map((c) => c.name), ...config.primaryKeys.flatMap((pk) => pk.columns.map((c) => c.name))],
      indexes,
      foreignKeys: config.foreignKeys.map((fk) => foreignKeyText(fk as unknown as ForeignKeyLike)).sort(),
    };
  }
  return shape;
}

const NO_EXCEPTIONS: EngineOnly = { tables: [], columns: [], indexes: [] };

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Every difference between two shapes, as sentences naming the table and what differs (empty:
 * they declare the same). What `onlyA` / `onlyB` list may exist on that side alone, and must.
 */
export function shapeDifferences(a: SchemaShape, b: SchemaShape, names: { a: string; b: string }, onlyA: EngineOnly = NO_EXCEPTIONS, onlyB: EngineOnly = NO_EXCEPTIONS): string[] {
  const problems: string[] = [];
  const compareSets = (what: string, inA: string[], inB: string[], allowedA: readonly string[], allowedB: readonly string[]) => {
    for (const name of inA) if (!inB.includes(name) && !allowedA.includes(name)) problems.push(`${what} ${name}: only in ${names.a}`);
    for (const name of inB) if (!inA.includes(name) && !allowedB.includes(name)) problems.push(`${what} ${name}: only in ${names.b}`);
    for (const name of allowedA) if (!inA.includes(name) || inB.includes(name)) problems.push(`${what} ${name}: listed as ${names.a}-only, but it is not`);
    for (const name of allowedB) if (!inB.includes(name) || inA.includes(name)) problems.push(`${what} ${name}: listed as ${names.b}-only, but it is not`);
  };
  compareSets("table", Object.keys(a), Object.keys(b), onlyA.tables, onlyB.tables);
  const qualified = (table: string, names: string[]) => names.map((name) => `${table}.${name}`);
  const tablesA = Object.keys(a).filter((t) => t in b);
  const onlyIn = (list: readonly string[], tables: string[]) => list.filter((name) => tables.includes(name.split(".")[0]!));
  const allColumns = (shape: SchemaShape) => tablesA.flatMap((t) => qualified(t, Object.keys(shape[t]!.columns)));
  const allIndexes = (shape: SchemaShape) => tablesA.flatMap((t) => qualified(t, Object.keys(shape[t]!.indexes)));
  compareSets("column", allColumns(a), allColumns(b), onlyIn(onlyA.columns, tablesA), onlyIn(onlyB.columns, tablesA));
  compareSets("index", allIndexes(a), allIndexes(b), onlyIn(onlyA.indexes, tablesA), onlyIn(onlyB.indexes, tablesA));
  for (const table of tablesA) {
    const ta = a[table]!;
    const tb = b[table]!;
    for (const [name, column] of Object.entries(ta.columns)) {
      const other = tb.columns[name];
      if (!other) continue;
      for (const key of Object.keys(column) as Array<keyof ColumnShape>) {
        if (!same(column[key], other[key])) problems.push(`column ${table}.${name}: ${key} is ${JSON.stringify(column[key])} in ${names.a}, ${JSON.stringify(other[key])} in ${names.b}`);
      }
    }
    if (!same(ta.primaryKey, tb.primaryKey)) problems.push(`table ${table}: primary key (${ta.primaryKey.join(", ")}) in ${names.a}, (${tb.primaryKey.join(", ")}) in ${names.b}`);
    for (const [name, index] of Object.entries(ta.indexes)) {
      const other = tb.indexes[name];
      if (other && !same(index, other)) problems.push(`index ${table}.${name}: ${JSON.stringify(index)} in ${names.a}, ${JSON.stringify(other)} in ${names.b}`);
    }
    if (!same(ta.foreignKeys, tb.foreignKeys)) problems.push(`table ${table}: foreign keys ${JSON.stringify(ta.foreignKeys)} in ${names.a}, ${JSON.stringify(tb.foreignKeys)} in ${names.b}`);
  }
  return problems;
}

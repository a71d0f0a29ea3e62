/**
 * What a drizzle schema declares, in terms both dialects share: tables, their columns (kind,
 * width of numbers, nullability, key, uniqueness, default, generated numbers), primary keys,
 * unique and check constraints, indexes (columns in order with their direction, uniqueness,
 * method, partial condition) and foreign keys (with their delete and update actions).
 * schema-parity.test.ts compares the SQLite schema's shape with the PostgreSQL one's, so a change
 * made to one and not the other fails.
 */
import { getTableName, is, SQL } from "drizzle-orm";
import { getTableConfig as pgTableConfig, PgDialect, PgTable } from "drizzle-orm/pg-core";
import { getTableConfig as sqliteTableConfig, SQLiteSyncDialect, SQLiteTable } from "drizzle-orm/sqlite-core";

/** A column's kind across dialects: SQLite integers are PostgreSQL smallint, integer or bigint; flags and JSON are kinds of their own. */
export type ColumnKind = "text" | "json" | "integer" | "real" | "boolean";

export interface ColumnShape {
  kind: ColumnKind;
  /**
   * Bits of a number (integer, real): SQLite stores every integer and real in 64; a PostgreSQL
   * integer holds 32, so a value past 2^31 that SQLite keeps fails there (null: not a number).
   */
  bits: number | null;
  notNull: boolean;
  unique: boolean;
  /** The default as JSON (null: none). */
  default: string | null;
  /** Numbered by the engine (SQLite AUTOINCREMENT, PostgreSQL identity). */
  generated: boolean;
}

export interface IndexShape {
  /** In index order: `time`, `time desc`, `name text_pattern_ops`, or an expression's SQL. */
  columns: string[];
  unique: boolean;
  /** The access method when not the engine's default b-tree (PostgreSQL `using`). */
  method: string | null;
  /** A partial index's condition, whitespace collapsed (null: the whole table). */
  where: string | null;
}

export interface TableShape {
  columns: Record<string, ColumnShape>;
  primaryKey: string[];
  /** Table-level unique constraints: `name (a, b)` (column-level ones are ColumnShape.unique). */
  uniques: string[];
  /** Check constraints: `name: condition`. */
  checks: string[];
  indexes: Record<string, IndexShape>;
  /** `job_id -> jobs(id) on delete cascade`, then ` on update …` when it is not `no action`. */
  foreignKeys: string[];
}

export type SchemaShape = Record<string, TableShape>;

/** What one engine declares and the other does not, on purpose: `table`, `table.column`, `table.index`. */
export interface EngineOnly {
  tables: readonly string[];
  columns: readonly string[];
  indexes: readonly string[];
  /** Number columns (`table.column`) this engine keeps narrower than the other, each with what bounds its values. */
  narrower?: Readonly<Record<string, string>>;
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

type Dialect = { sqlToQuery(sql: SQL, invokeSource?: "indexes"): { sql: string } };

/** SQL as both dialects write it alike: identifiers unquoted, parameters as `?`, whitespace collapsed. */
function sqlText(value: SQL, dialect: Dialect): string {
  return dialect.sqlToQuery(value, "indexes").sql.replace(/"/g, "").replace(/\$\d+/g, "?").replace(/\s+/g, " ").trim();
}

function whereText(where: SQL | undefined, dialect: Dialect): string | null {
  return where ? sqlText(where, dialect) : null;
}

function defaultText(value: unknown): string | null {
  return value === undefined ? null : JSON.stringify(value);
}

/** An index column: its name with its direction (ascending and the drizzle default `nulls last` left out), or an expression's SQL. */
function indexColumnText(column: unknown, dialect: Dialect): string {
  if (is(column, SQL))
    return sqlText(column, dialect)
      .replace(/\s+asc$/i, "")
      .replace(/\s+(desc)$/i, " desc");
  const { name, indexConfig } = column as { name: string; indexConfig?: { order?: string; nulls?: string; opClass?: string } };
  let text = name;
  if (indexConfig?.opClass) text += ` ${indexConfig.opClass}`;
  if (indexConfig?.order === "desc") text += " desc";
  if (indexConfig?.nulls === "first") text += " nulls first";
  return text;
}

function sqliteKind(column: RawColumn): ColumnKind {
  if (column.dataType === "boolean") return "boolean";
  if (column.dataType === "json") return "json";
  const type = column.getSQLType();
  return type === "real" ? "real" : type === "text" ? "text" : "integer";
}

const PG_NUMBERS: Record<string, { kind: ColumnKind; bits: number }> = {
  smallint: { kind: "integer", bits: 16 },
  smallserial: { kind: "integer", bits: 16 },
  integer: { kind: "integer", bits: 32 },
  serial: { kind: "integer", bits: 32 },
  bigint: { kind: "integer", bits: 64 },
  bigserial: { kind: "integer", bits: 64 },
  real: { kind: "real", bits: 32 },
  "double precision": { kind: "real", bits: 64 },
};

function pgKind(column: RawColumn): ColumnKind {
  if (column.dataType === "boolean") return "boolean";
  // JSON is text written and read through a custom type (schema-postgres.ts jsonText).
  if (column.dataType === "custom" && column.getSQLType() === "text") return "json";
  const type = column.getSQLType();
  return PG_NUMBERS[type]?.kind ?? (type === "text" ? "text" : (type as ColumnKind));
}

type ForeignKeyLike = {
  reference(): { columns: Array<{ name: string }>; foreignColumns: Array<{ name: string }>; foreignTable: unknown };
  onDelete: string | undefined;
  onUpdate: string | undefined;
};

function foreignKeyText(fk: ForeignKeyLike): string {
  const ref = fk.reference();
  const table = getTableName(ref.foreignTable as Parameters<typeof getTableName>[0]);
  const onUpdate = fk.onUpdate && fk.onUpdate !== "no action" ? ` on update ${fk.onUpdate}` : "";
  return `${ref.columns.map((c) => c.name).join(", ")} -> ${table}(${ref.foreignColumns.map((c) => c.name).join(", ")}) on delete ${fk.onDelete ?? "no action"}${onUpdate}`;
}

/** What both dialects' table configs give alike. */
interface TableConfigLike {
  name: string;
  columns: Array<{ name: string; primary: boolean }>;
  primaryKeys: Array<{ columns: Array<{ name: string }> }>;
  uniqueConstraints: Array<{ columns: Array<{ name: string }>; getName(): string | undefined; nullsNotDistinct?: boolean }>;
  checks: Array<{ name: string; value: SQL }>;
  foreignKeys: unknown[];
}

/** The table-level parts both dialects declare the same way: keys, constraints and foreign keys. */
function tableParts(config: TableConfigLike, dialect: Dialect): Omit<TableShape, "columns" | "indexes"> {
  return {
    primaryKey: [...config.columns.filter((c) => c.primary).map((c) => c.name), ...config.primaryKeys.flatMap((pk) => pk.columns.map((c) => c.name))],
    uniques: config.uniqueConstraints.map((u) => `${u.getName()} (${u.columns.map((c) => c.name).join(", ")})${u.nullsNotDistinct ? " nulls not distinct" : ""}`).sort(),
    checks: config.checks.map((c) => `${c.name}: ${sqlText(c.value, dialect)}`).sort(),
    foreignKeys: config.foreignKeys.map((fk) => foreignKeyText(fk as ForeignKeyLike)).sort(),
  };
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
      const kind = sqliteKind(column);
      columns[column.name] = {
        kind,
        bits: kind === "integer" || kind === "real" ? 64 : null,
        notNull: column.notNull,
        unique: column.isUnique,
        default: defaultText(column.default),
        generated: column.autoIncrement === true,
      };
    }
    const indexes: Record<string, IndexShape> = {};
    for (const { config: index } of config.indexes) {
      indexes[index.name] = { columns: index.columns.map((c) => indexColumnText(c, dialect)), unique: index.unique, method: null, where: whereText(index.where, dialect) };
    }
    shape[config.name] = { columns, indexes, ...tableParts(config as unknown as TableConfigLike, dialect) };
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
      const kind = pgKind(column);
      columns[column.name] = {
        kind,
        bits: kind === "integer" || kind === "real" ? (PG_NUMBERS[column.getSQLType()]?.bits ?? null) : null,
        notNull: column.notNull,
        unique: column.isUnique,
        default: defaultText(column.default),
        generated: column.generatedIdentity !== undefined,
      };
    }
    const indexes: Record<string, IndexShape> = {};
    for (const { config: index } of config.indexes) {
      if (!index.name) throw new Error(`an index of ${config.name} has no name: name every index, as SQLite must`);
      const method = index.method && index.method !== "btree" ? index.method : null;
      indexes[index.name] = { columns: index.columns.map((c) => indexColumnText(c, dialect)), unique: index.unique, method, where: whereText(index.where, dialect) };
    }
    shape[config.name] = { columns, indexes, ...tableParts(config as unknown as TableConfigLike, dialect) };
  }
  return shape;
}

const NO_EXCEPTIONS: EngineOnly = { tables: [], columns: [], indexes: [] };

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Every difference between two shapes, as sentences naming the table and what differs (empty:
 * they declare the same). What `onlyA` / `onlyB` list may exist on that side alone, and must;
 * the columns their `narrower` lists may hold fewer bits on that side, and must.
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
  const narrowerA = Object.keys(onlyA.narrower ?? {});
  const narrowerB = Object.keys(onlyB.narrower ?? {});
  const bitsOf = (shape: SchemaShape, name: string) => shape[name.split(".")[0]!]?.columns[name.split(".")[1]!]?.bits ?? null;
  for (const name of narrowerA) if (!((bitsOf(a, name) ?? Infinity) < (bitsOf(b, name) ?? -Infinity))) problems.push(`column ${name}: listed as narrower in ${names.a}, but it is not`);
  for (const name of narrowerB) if (!((bitsOf(b, name) ?? Infinity) < (bitsOf(a, name) ?? -Infinity))) problems.push(`column ${name}: listed as narrower in ${names.b}, but it is not`);
  for (const table of tablesA) {
    const ta = a[table]!;
    const tb = b[table]!;
    for (const [name, column] of Object.entries(ta.columns)) {
      const other = tb.columns[name];
      if (!other) continue;
      for (const key of Object.keys(column) as Array<keyof ColumnShape>) {
        if (same(column[key], other[key])) continue;
        if (key === "bits" && (narrowerA.includes(`${table}.${name}`) || narrowerB.includes(`${table}.${name}`))) continue;
        problems.push(`column ${table}.${name}: ${key} is ${JSON.stringify(column[key])} in ${names.a}, ${JSON.stringify(other[key])} in ${names.b}`);
      }
    }
    if (!same(ta.primaryKey, tb.primaryKey)) problems.push(`table ${table}: primary key (${ta.primaryKey.join(", ")}) in ${names.a}, (${tb.primaryKey.join(", ")}) in ${names.b}`);
    for (const [name, index] of Object.entries(ta.indexes)) {
      const other = tb.indexes[name];
      if (other && !same(index, other)) problems.push(`index ${table}.${name}: ${JSON.stringify(index)} in ${names.a}, ${JSON.stringify(other)} in ${names.b}`);
    }
    for (const part of ["uniques", "checks", "foreignKeys"] as const) {
      const what = { uniques: "unique constraints", checks: "checks", foreignKeys: "foreign keys" }[part];
      if (!same(ta[part], tb[part])) problems.push(`table ${table}: ${what} ${JSON.stringify(ta[part])} in ${names.a}, ${JSON.stringify(tb[part])} in ${names.b}`);
    }
  }
  return problems;
}

/**
 * Row types of raw SQL results, derived from the drizzle schema so no repository hand-writes a
 * copy of a table: `Raw<typeof tasks>` is a task row as SQL returns it (column names as stored,
 * booleans as 0/1, JSON columns as their text), and `RawPick<typeof tasks, "id" | "status">` the
 * columns a statement selects.
 */
import type { Column, Table } from "drizzle-orm";

/** What the driver returns for a column: drizzle's modes (boolean, json) are applied by drizzle's query builder only. */
type StoredValue<C extends Column> = C["_"]["columnType"] extends "SQLiteBoolean" ? number : C["_"]["columnType"] extends "SQLiteTextJson" ? string : C["_"]["data"];

type Nullable<C extends Column> = C["_"]["notNull"] extends true ? never : null;

type ColumnsOf<T extends Table> = T["_"]["columns"];

export type Raw<T extends Table> = {
  [K in keyof ColumnsOf<T> as ColumnsOf<T>[K]["_"]["name"]]: StoredValue<ColumnsOf<T>[K]> | Nullable<ColumnsOf<T>[K]>;
};

export type RawPick<T extends Table, K extends keyof Raw<T>> = Pick<Raw<T>, K>;

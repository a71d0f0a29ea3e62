/**
 * A write refused by a unique index: what a check-then-insert meets when a concurrent unit
 * inserted the same key between its check and its INSERT (on PostgreSQL at READ COMMITTED the
 * check cannot see an uncommitted row; the INSERT waits for that unit, then is refused). A
 * service turns it into the same CONFLICT its check gives, instead of an internal error.
 */

/** A unique index as each engine names it when it refuses a write. */
export interface UniqueKey {
  /** SQLite's words for it: its columns as `table.column` ("UNIQUE constraint failed: pools.name"). */
  columns: string;
  /** PostgreSQL's name of the index or constraint (`pools_name_unique`). */
  name: string;
}

/** SQLite's extended codes (better-sqlite3; a primary key has its own), PostgreSQL's SQLSTATE unique_violation (node-postgres). */
const UNIQUE_CODES: ReadonlySet<string> = new Set(["SQLITE_CONSTRAINT_UNIQUE", "SQLITE_CONSTRAINT_PRIMARYKEY", "23505"]);

/** Whether `error` (or one it was caused by) is a unique index refusing a write; with `key`, that index. */
export function isUniqueViolation(error: unknown, key?: UniqueKey): boolean {
  for (let cause: unknown = error, depth = 0; cause instanceof Error && depth < 4; cause = cause.cause, depth++) {
    const { code, constraint } = cause as { code?: unknown; constraint?: unknown };
    if (typeof code !== "string" || !UNIQUE_CODES.has(code)) continue;
    if (key === undefined) return true;
    return code === "23505" ? constraint === key.name : cause.message.endsWith(`: ${key.columns}`);
  }
  return false;
}

/**
 * The async unit of work, the same on both engines: SQLite (better-sqlite3, one connection,
 * units take turns on it) and PostgreSQL (node-postgres, a pool, a unit is a real transaction on
 * a client of its own). A service runs a use case as `store.transaction(async (tx) => …)` and
 * every statement through `tx`: the unit's connection is in the handle, never ambient.
 *
 * SQL is written once, with `?` placeholders; the PostgreSQL engine turns them into `$1…`
 * (placeholders.ts). What differs between the dialects stays the repository's to say.
 *
 * Nesting is explicit: `tx.transaction(fn)` opens a savepoint. `store.transaction` inside a
 * unit of the same store, without its tx, is a mistake: on SQLite it would wait forever for the
 * connection its own outer unit holds, on PostgreSQL it would be a second transaction that
 * commits or waits apart from the first. With nesting checks on (the tests turn them on:
 * checkUnitNesting in unit.ts) it throws NestedUnitError; they cost an AsyncLocalStorage, whose
 * promise hooks slow every promise of the process, so a server runs without them. Nothing else is
 * ambient: what must wait for a commit (farm events) is handed the tx.
 */

export type Engine = "sqlite" | "postgres";

/** What a statement binds. Booleans become 1/0 on SQLite (flags are integers there). */
export type SqlValue = string | number | bigint | boolean | null | Uint8Array;
export type Params = readonly SqlValue[];
export type Row = Record<string, unknown>;

export interface RunResult {
  /** Rows inserted, updated or deleted. */
  changes: number;
  /** SQLite's rowid of the last INSERT; PostgreSQL has none (use RETURNING). */
  lastInsertRowid?: number;
}

/**
 * A statement that runs often (claims, completions, releases): PostgreSQL parses and plans it
 * once per connection under its name, SQLite prepares it once per connection. `R` is the row type
 * its reads return.
 */
export interface Statement<R = Row> {
  readonly name: string;
  readonly sql: string;
  /** Carries the row type only; never set. */
  readonly row?: R;
}

/** SQL text, or a named statement. */
export type Query<R = Row> = string | Statement<R>;

const statements = new Map<string, Statement<unknown>>();

/** A named statement; defining a name twice with other SQL throws (PostgreSQL would refuse it on the connection). */
export function statement<R = Row>(name: string, sql: string): Statement<R> {
  const known = statements.get(name);
  if (known !== undefined) {
    if (known.sql !== sql) throw new Error(`the statement "${name}" is already defined with other SQL`);
    return known as Statement<R>;
  }
  const made: Statement<R> = Object.freeze({ name, sql });
  statements.set(name, made);
  return made;
}

/** The statements of a read unit. */
export interface ReadTx {
  readonly engine: Engine;
  all<R = Row>(query: Query<R>, params?: Params): Promise<R[]>;
  /** The first row, or undefined. */
  get<R = Row>(query: Query<R>, params?: Params): Promise<R | undefined>;
}

/** A unit of work (or a savepoint in one): valid until its fn returns; a statement on it afterwards throws. */
export interface Tx extends ReadTx {
  run(query: Query<unknown>, params?: Params): Promise<RunResult>;
  /** Runs fn in a savepoint: rolled back alone when fn throws, the enclosing unit going on. One at a time: await it before opening another. */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** Runs `hook` once, after fn, just before the outermost COMMIT (inside the transaction: a throw rolls back). The same hook twice runs once. */
  beforeCommit(hook: () => void | Promise<void>): void;
  /** Runs `fn` once the outermost unit has committed; never if it, or this savepoint, rolls back. */
  afterCommit(fn: () => void): void;
  /** Runs `fn` if the unit, or this savepoint, rolls back (a retried attempt included). */
  onRollback(fn: () => void): void;
  /**
   * The unit's own instance of a part that gathers writes in memory and writes them late (the
   * per-status count changes of TaskState), made by `make` on first use in this unit. The unit
   * flushes it before a savepoint opens (what it gathered belongs to the enclosing level) and
   * just before COMMIT, after the beforeCommit hooks; it forgets what it gathered when a
   * savepoint rolls back (then only that savepoint's own). Keyed by `key` (the owner, one per farm).
   */
  local<T extends UnitLocal>(key: object, make: () => T): T;
}

/** A part of a unit that writes late: see Tx.local. */
export interface UnitLocal {
  /** Writes what was gathered, through `tx`, and forgets it. */
  flush(tx: Tx): Promise<void>;
  /** Drops what was gathered (its savepoint rolled back). */
  forget(): void;
}

export interface UnitOptions {
  /** PostgreSQL's isolation level (READ COMMITTED by default); SQLite's units are serializable anyway. */
  isolation?: "read committed" | "repeatable read" | "serializable";
}

export interface ReadOptions {
  /** One snapshot for all the unit's statements (a read-only transaction); without it each statement sees the latest commit. */
  consistent?: boolean;
}

export interface AsyncStore {
  readonly engine: Engine;
  /**
   * Runs fn as one unit of work: committed when it resolves, rolled back when it throws. On
   * PostgreSQL a unit that hits a deadlock or a serialization failure runs again from the
   * start (its hooks and callbacks discarded), so fn keeps its effects in the database or in hooks.
   */
  transaction<T>(fn: (tx: Tx) => Promise<T>, options?: UnitOptions): Promise<T>;
  /** Runs fn on a connection for reads only, without a transaction unless `consistent`. */
  read<T>(fn: (tx: ReadTx) => Promise<T>, options?: ReadOptions): Promise<T>;
  /** Waits for running and queued units, then closes; again returns the same promise. */
  close(): Promise<void>;
}

/**
 * A conflict with another unit that running the unit again resolves: PostgreSQL's deadlock
 * (40P01) and serialization failure (40001). The PostgreSQL engine retries a unit that ends on
 * one; code that catches errors inside a unit (a savepoint per item) lets these through, so the
 * whole unit runs again instead of one item failing. SQLite never raises them.
 */
export function isRetryableConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "40P01" || code === "40001";
}

/** The database cannot be reached (refused, lost, shut down) or the store is closed: callers may answer "try again later". */
export class StoreUnavailableError extends Error {
  override name = "StoreUnavailableError";
}

export class StoreClosedError extends StoreUnavailableError {
  override name = "StoreClosedError";
  constructor() {
    super("the store is closed: no unit of work can start");
  }
}

/** A unit started, without its tx, inside a unit of the same store. */
export class NestedUnitError extends Error {
  override name = "NestedUnitError";
  constructor(what: string) {
    super(`${what} inside a unit of work of the same store: pass its tx down and call tx.transaction(fn) for a savepoint (on SQLite this would wait forever for the connection the outer unit holds)`);
  }
}

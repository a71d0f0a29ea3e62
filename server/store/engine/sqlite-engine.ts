/**
 * The async unit of work on SQLite: one better-sqlite3 connection, which a unit holds from its
 * BEGIN IMMEDIATE to its COMMIT across every await in between; units wanting it meanwhile wait
 * their turn, first come first served. Writes to one SQLite file are serialized anyway, and a
 * read between another unit's statements would see that unit's uncommitted rows, so reads take
 * their turn too. Statements are prepared once per SQL text.
 *
 * The statements themselves stay synchronous (better-sqlite3): a unit without awaits of its own
 * runs to its COMMIT in microtasks, with no other I/O in between.
 */
import type Database from "better-sqlite3";
import { NestedUnitError, StoreClosedError, type AsyncStore, type Params, type Query, type ReadOptions, type ReadTx, type Row, type RunResult, type Tx, type UnitOptions } from "./engine";
import { currentUnit, runAfterCommits, runRead, runUnit, Unit, type Connection } from "./unit";

/** A first-come-first-served lock: `acquire` answers null when taken at once (no promise, the common case). */
class TurnLock {
  private held = false;
  private readonly waiting: Array<() => void> = [];

  acquire(): Promise<void> | null {
    if (!this.held) {
      this.held = true;
      return null;
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Hands the lock to the next in line (it stays held), or frees it. */
  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.held = false;
  }
}

/** Prepared statements kept per connection at most (the cache is emptied past it). */
const MAX_PREPARED = 2048;

class SqliteConnection implements Connection {
  private readonly statements = new Map<string, Database.Statement>();
  private readonly savepoints: Array<{ open: Database.Statement; release: Database.Statement; rollbackTo: Database.Statement }> = [];
  private readonly beginWrite: Database.Statement;
  private readonly beginRead: Database.Statement;
  private readonly commitStatement: Database.Statement;
  private readonly rollbackStatement: Database.Statement;

  constructor(private readonly sqlite: Database.Database) {
    // IMMEDIATE: the write lock at BEGIN, so another process writing the file makes this wait (busy_timeout) rather than fail halfway.
    this.beginWrite = sqlite.prepare("BEGIN IMMEDIATE");
    this.beginRead = sqlite.prepare("BEGIN");
    this.commitStatement = sqlite.prepare("COMMIT");
    this.rollbackStatement = sqlite.prepare("ROLLBACK");
  }

  all(query: Query<unknown>, params: Params): Row[] {
    return this.prepared(query).all(bindable(params)) as Row[];
  }

  get(query: Query<unknown>, params: Params): Row | undefined {
    return this.prepared(query).get(bindable(params)) as Row | undefined;
  }

  run(query: Query<unknown>, params: Params): RunResult {
    const result = this.prepared(query).run(bindable(params));
    return { changes: result.changes, lastInsertRowid: Number(result.lastInsertRowid) };
  }

  begin(writes: boolean): void {
    // The sync Store (or other code) left a transaction open: its commit is not this unit's to make.
    if (this.sqlite.inTransaction) throw new Error("a unit of work cannot start inside a transaction the store did not open");
    (writes ? this.beginWrite : this.beginRead).run();
  }

  commit(): void {
    this.commitStatement.run();
  }

  rollback(): void {
    // Some errors (SQLITE_FULL, SQLITE_IOERR) end the transaction themselves.
    if (this.sqlite.inTransaction) this.rollbackStatement.run();
  }

  savepoint(level: number): void {
    this.savepointStatements(level).open.run();
  }

  release(level: number): void {
    this.savepointStatements(level).release.run();
  }

  rollbackTo(level: number): void {
    // Some errors (SQLITE_FULL, SQLITE_IOERR) end the whole transaction, savepoints included.
    if (!this.sqlite.inTransaction) throw new Error("the transaction ended with the error inside its savepoint");
    const statements = this.savepointStatements(level);
    statements.rollbackTo.run();
    statements.release.run();
  }

  close(): void {
    this.sqlite.close();
  }

  private prepared(query: Query<unknown>): Database.Statement {
    const sql = typeof query === "string" ? query : query.sql;
    let statement = this.statements.get(sql);
    if (statement === undefined) {
      // A guard: views build statement text from whitelists (sort keys, filters), a few hundred shapes at most.
      if (this.statements.size >= MAX_PREPARED) this.statements.clear();
      this.statements.set(sql, (statement = this.sqlite.prepare(sql)));
    }
    return statement;
  }

  private savepointStatements(level: number) {
    let statements = this.savepoints[level];
    if (statements === undefined) {
      const name = `unit_${level}`;
      statements = { open: this.sqlite.prepare(`SAVEPOINT ${name}`), release: this.sqlite.prepare(`RELEASE ${name}`), rollbackTo: this.sqlite.prepare(`ROLLBACK TO ${name}`) };
      this.savepoints[level] = statements;
    }
    return statements;
  }
}

/** better-sqlite3 binds no booleans: flags are 1 and 0 in SQLite's tables. Copies only when there is one. */
function bindable(params: Params): Params {
  for (let i = 0; i < params.length; i++) {
    if (typeof params[i] === "boolean") return params.map((p) => (typeof p === "boolean" ? (p ? 1 : 0) : p));
  }
  return params;
}

export class SqliteStore implements AsyncStore {
  readonly engine = "sqlite" as const;
  private readonly turns = new TurnLock();
  private readonly connection: SqliteConnection;
  private closing: Promise<void> | null = null;

  /**
   * Takes over `sqlite` (opened and migrated: server/db/connection.ts); close() closes it.
   * `sqlite` stays readable for tests, benchmarks' raw ceilings and the data-folder tools that
   * copy the file; the farm's own statements go through units.
   */
  constructor(readonly sqlite: Database.Database) {
    this.connection = new SqliteConnection(sqlite);
  }

  async transaction<T>(fn: (tx: Tx) => Promise<T>, _options?: UnitOptions): Promise<T> {
    this.admit("store.transaction");
    const wait = this.turns.acquire();
    if (wait) await wait;
    const unit = new Unit(this, "sqlite", this.connection, true);
    let result: T;
    try {
      this.connection.begin(true);
      result = await runUnit(unit, fn);
    } finally {
      this.turns.release();
    }
    runAfterCommits(unit);
    return result;
  }

  async read<T>(fn: (tx: ReadTx) => Promise<T>, options?: ReadOptions): Promise<T> {
    this.admit("store.read");
    const wait = this.turns.acquire();
    if (wait) await wait;
    const consistent = options?.consistent === true;
    try {
      if (consistent) this.connection.begin(false);
      const result = await runRead(new Unit(this, "sqlite", this.connection, false), fn);
      if (consistent) this.connection.commit();
      return result;
    } catch (error) {
      if (consistent) this.connection.rollback();
      throw error;
    } finally {
      this.turns.release();
    }
  }

  close(): Promise<void> {
    if (currentUnit(this)) return Promise.reject(new NestedUnitError("store.close"));
    return (this.closing ??= this.closeAfterQueued());
  }

  private async closeAfterQueued(): Promise<void> {
    // Last in line: the units admitted before close() run first. The turn is never handed back.
    const wait = this.turns.acquire();
    if (wait) await wait;
    this.connection.close();
  }

  private admit(what: string): void {
    if (this.closing) throw new StoreClosedError();
    if (currentUnit(this)) throw new NestedUnitError(what);
  }
}

/**
 * The unit of work both engines share: BEGIN, the caller's fn, the beforeCommit hooks, COMMIT;
 * ROLLBACK and the unit's undo when anything throws; savepoints for `tx.transaction`. The engines
 * give it a Connection and decide what happens around it (taking turns on SQLite, a pool client
 * and retries on PostgreSQL), and run the afterCommit callbacks once they let go of the
 * connection (runAfterCommits), so a callback may start a unit of its own.
 *
 * With nesting checks on (checkUnitNesting: the tests), the unit being run is kept in an
 * AsyncLocalStorage to answer one question: is a new unit of this store started inside one of its
 * own (NestedUnitError). Statements never look it up: they go through the tx they were handed.
 * Off by default: an AsyncLocalStorage turns on Node's promise hooks, which tax every promise of
 * the process, and the worker sync path makes many (bench:dispatch lost about 15 % to them).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { Engine, Params, Query, ReadTx, Row, RunResult, Tx, UnitLocal } from "./engine";

/** One connection, as a unit uses it. SQLite's answers at once (plain values), PostgreSQL's with promises. */
export interface Connection {
  all(query: Query<unknown>, params: Params): Row[] | Promise<Row[]>;
  get(query: Query<unknown>, params: Params): Row | undefined | Promise<Row | undefined>;
  run(query: Query<unknown>, params: Params): RunResult | Promise<RunResult>;
  commit(): void | Promise<void>;
  /** Must not throw when the connection is gone: the engine finds out and discards it. */
  rollback(): void | Promise<void>;
  savepoint(level: number): void | Promise<void>;
  release(level: number): void | Promise<void>;
  rollbackTo(level: number): void | Promise<void>;
}

type Hook = () => void | Promise<void>;

export class Unit {
  /** 1 for the unit itself, one more per open savepoint. */
  depth = 1;
  /** Set once COMMIT or ROLLBACK is done: its tx no longer reaches it. */
  done = false;
  readonly beforeCommits: Hook[] = [];
  readonly afterCommits: Array<() => void> = [];
  readonly rollbacks: Array<() => void> = [];
  /**
   * Set when a savepoint could not be rolled back to (SQLite ended the whole transaction itself on
   * SQLITE_FULL or an I/O error; the connection was lost): the error that caused it. The unit can
   * only roll back now: every later statement, savepoint or commit on it throws this error.
   */
  broken: unknown = undefined;
  /** Tx.local's parts, by key; null until the first. */
  locals: Map<object, UnitLocal> | null = null;

  constructor(
    readonly owner: object,
    readonly engine: Engine,
    readonly connection: Connection,
    /** False for a read unit: no run, no savepoints, no hooks. */
    readonly writes: boolean,
  ) {}
}

const running = new AsyncLocalStorage<Unit>();
let nestingChecks = false;

/** Turns the NestedUnitError checks on or off for units started from now on (the tests turn them on: vitest-setup.ts). */
export function checkUnitNesting(on: boolean): void {
  nestingChecks = on;
}

/** The open unit of `owner` that the caller runs in, if any (always undefined without nesting checks). */
export function currentUnit(owner: object): Unit | undefined {
  if (!nestingChecks) return undefined;
  const unit = running.getStore();
  return unit !== undefined && unit.owner === owner && !unit.done ? unit : undefined;
}

const NO_PARAMS: Params = [];

class UnitTx implements Tx {
  closed = false;

  constructor(
    private readonly unit: Unit,
    private readonly level: number,
  ) {}

  get engine(): Engine {
    return this.unit.engine;
  }

  // Not async functions: on SQLite the answer is already there, and the worker sync path runs
  // these a hundred thousand times a second; an async frame each cost about 5 % of bench:dispatch.
  // Failures still come as rejected promises, as from an async function.
  all<R = Row>(query: Query<R>, params?: Params): Promise<R[]> {
    try {
      this.check();
      return Promise.resolve(this.unit.connection.all(query, params ?? NO_PARAMS) as R[] | Promise<R[]>);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  get<R = Row>(query: Query<R>, params?: Params): Promise<R | undefined> {
    try {
      this.check();
      return Promise.resolve(this.unit.connection.get(query, params ?? NO_PARAMS) as R | undefined | Promise<R | undefined>);
    } catch (error) {
      return Promise.reject(error);
    }
  }

  run(query: Query<unknown>, params?: Params): Promise<RunResult> {
    try {
      this.check();
      // A read unit on PostgreSQL has no transaction: a write there would commit on its own.
      if (!this.unit.writes) throw new Error("a read unit does not write: use store.transaction");
      return Promise.resolve(this.unit.connection.run(query, params ?? NO_PARAMS));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  async transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    this.check();
    const unit = this.writeUnit("a savepoint");
    if (unit.depth !== this.level) throw new Error("savepoints of a unit nest: await one tx.transaction before opening another, and open it on the innermost tx");
    const level = this.level + 1;
    // What the parts gathered so far is the enclosing level's: written there, before the savepoint.
    // A part that fails to write has lost what it took out: the unit can only roll back.
    try {
      await flushLocals(unit, this);
    } catch (error) {
      unit.broken ??= error;
      throw error;
    }
    await unit.connection.savepoint(level);
    const marks = [unit.beforeCommits.length, unit.afterCommits.length, unit.rollbacks.length] as const;
    unit.depth = level;
    const inner = new UnitTx(unit, level);
    let result: T;
    try {
      result = await fn(inner);
      if (unit.depth !== level) throw new Error("a savepoint was still open when its enclosing one ended: await every tx.transaction");
    } catch (error) {
      inner.closed = true;
      unit.depth = this.level;
      try {
        await unit.connection.rollbackTo(level);
      } catch {
        // The transaction is gone with its savepoints: the cause is what the caller must hear.
        unit.broken ??= error;
        throw error;
      }
      undo(unit, ...marks);
      if (unit.locals) for (const part of unit.locals.values()) part.forget();
      throw error;
    }
    inner.closed = true;
    unit.depth = this.level;
    await unit.connection.release(level);
    return result;
  }

  beforeCommit(hook: Hook): void {
    this.check();
    const unit = this.writeUnit("beforeCommit");
    if (!unit.beforeCommits.includes(hook)) unit.beforeCommits.push(hook);
  }

  afterCommit(fn: () => void): void {
    this.check();
    this.writeUnit("afterCommit").afterCommits.push(fn);
  }

  onRollback(fn: () => void): void {
    this.check();
    this.writeUnit("onRollback").rollbacks.push(fn);
  }

  local<T extends UnitLocal>(key: object, make: () => T): T {
    this.check();
    const unit = this.writeUnit("local");
    let part = unit.locals?.get(key);
    if (part === undefined) (unit.locals ??= new Map()).set(key, (part = make()));
    return part as T;
  }

  private check(): void {
    // On SQLite the connection is another unit's by now: a late statement would land in its transaction.
    if (this.closed) throw new Error("this unit of work (or savepoint) has ended: its tx can no longer be used");
    if (this.unit.broken !== undefined) throw this.unit.broken;
  }

  private writeUnit(what: string): Unit {
    if (!this.unit.writes) throw new Error(`${what} in a read unit: use store.transaction`);
    return this.unit;
  }
}

/**
 * Runs fn as the unit's body after the engine's BEGIN: hooks, COMMIT, or ROLLBACK and the undo
 * (its onRollback callbacks, last registered first). Leaves the afterCommit callbacks in the unit.
 */
export async function runUnit<T>(unit: Unit, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const tx = new UnitTx(unit, 1);
  let result: T;
  try {
    result = await (nestingChecks ? running.run(unit, body, unit, tx, fn) : body(unit, tx, fn));
    const committing = unit.connection.commit();
    if (committing) await committing;
  } catch (error) {
    tx.closed = true;
    unit.done = true;
    const rollingBack = unit.connection.rollback();
    if (rollingBack) await rollingBack;
    undo(unit, 0, 0, 0);
    throw error;
  }
  tx.closed = true;
  unit.done = true;
  return result;
}

async function body<T>(unit: Unit, tx: Tx, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const result = await fn(tx);
  // A caller that caught a broken savepoint's error and went on: the unit must not commit.
  if (unit.broken !== undefined) throw unit.broken;
  if (unit.depth !== 1) throw new Error("a savepoint was still open when the unit ended: await every tx.transaction");
  // By index: a hook may register another.
  for (let i = 0; i < unit.beforeCommits.length; i++) await unit.beforeCommits[i]!();
  await flushLocals(unit, tx);
  return result;
}

async function flushLocals(unit: Unit, tx: Tx): Promise<void> {
  if (unit.locals === null) return;
  for (const part of unit.locals.values()) await part.flush(tx);
}

/** Runs fn as a read unit (the engine began a transaction when one was asked for, and ends it). */
export async function runRead<T>(unit: Unit, fn: (tx: ReadTx) => Promise<T>): Promise<T> {
  const tx = new UnitTx(unit, 1);
  try {
    return await (nestingChecks ? running.run(unit, fn, tx) : fn(tx));
  } finally {
    tx.closed = true;
    unit.done = true;
  }
}

function undo(unit: Unit, beforeCommits: number, afterCommits: number, rollbacks: number): void {
  unit.beforeCommits.length = beforeCommits;
  unit.afterCommits.length = afterCommits;
  if (unit.rollbacks.length === rollbacks) return;
  const callbacks = unit.rollbacks.splice(rollbacks);
  for (let i = callbacks.length - 1; i >= 0; i--) callbacks[i]!();
}

/**
 * Runs every afterCommit callback of a committed unit. A callback that throws is said on the
 * console and swallowed: the unit committed, and its caller must not take it for failed (the
 * sync batcher would tell every worker of the batch that its committed sync did not happen).
 */
export function runAfterCommits(unit: Unit): void {
  if (unit.afterCommits.length === 0) return;
  for (const fn of unit.afterCommits.splice(0)) {
    try {
      fn();
    } catch (error) {
      console.error("loom: a callback after a commit failed:", error);
    }
  }
}

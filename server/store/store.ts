/**
 * The store: the farm's database connection and its unit of work. A service runs each use case
 * as one `store.transaction(fn)`; one opened inside another is a savepoint (better-sqlite3 nests
 * transaction functions that way), so a part that fails rolls back alone while the rest commits.
 *
 * Each open unit carries state: hooks to run just before the outermost commit, callbacks to run
 * after it (how farm events are published only once their change is visible: events.ts), and
 * callbacks for its rollback. What a savepoint registered goes with it when it rolls back.
 *
 * The worker sync path opens thousands of units a second (a savepoint per sync inside the group
 * commit, sync-batcher.ts), so a unit costs a counter and three array lengths, no allocation.
 */
import type Database from "better-sqlite3";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import type * as schema from "../db/schema";

export type Db = BetterSQLite3Database<typeof schema>;

/**
 * A part that gathers writes in memory and writes them late (TaskState's count changes): the
 * store flushes it when a unit or savepoint opens (what it gathered belongs to the enclosing
 * unit and is written there) and just before the outermost commit, and has it forget what it
 * gathered when a unit or savepoint rolls back, which is then only that unit's own.
 */
export interface WriteBehind {
  flush(): void;
  forget(): void;
}

export class Store {
  /** Open units: 0 outside any, 1 in a transaction, one more per savepoint inside it. */
  private depth = 0;
  private readonly beforeCommits: Array<() => void> = [];
  private readonly afterCommits: Array<() => void> = [];
  private readonly rollbacks: Array<() => void> = [];
  private readonly writeBehinds: WriteBehind[] = [];
  /** One transaction function for every unit: better-sqlite3 makes it a savepoint when nested. */
  private readonly run: (fn: () => unknown) => unknown;
  private readonly runImmediate: (fn: () => unknown) => unknown;

  constructor(
    /** Direct access for the code that still holds its own SQL; it moves into server/store. */
    readonly sqlite: Database.Database,
    readonly db: Db,
  ) {
    const unit = sqlite.transaction((fn: () => unknown) => {
      const result = fn();
      // Inside the transaction, so a hook that throws rolls everything back.
      if (this.depth === 1) this.beforeOutermostCommit();
      return result;
    });
    this.run = unit;
    this.runImmediate = unit.immediate;
  }

  /** Whether a unit of work is open (publishing then waits for its commit). */
  get inUnit(): boolean {
    return this.depth > 0;
  }

  /**
   * Runs `fn` as one unit of work: committed when it returns, rolled back when it throws.
   * `immediate` takes the write lock at the start (BEGIN IMMEDIATE) rather than at the first
   * write, for a unit that reads before it writes while another process may write the file.
   */
  transaction<T>(fn: () => T, options?: { immediate?: boolean }): T {
    if (this.depth === 0 && this.sqlite.inTransaction) {
      // Its commit would be another's to make: hooks and events would run before it.
      throw new Error("a unit of work cannot start inside a transaction the store did not open");
    }
    for (const part of this.writeBehinds) part.flush();
    const before = this.beforeCommits.length;
    const after = this.afterCommits.length;
    const rollbacks = this.rollbacks.length;
    this.depth++;
    let result: T;
    try {
      result = (options?.immediate ? this.runImmediate : this.run)(fn) as T;
    } catch (error) {
      this.depth--;
      this.rolledBack(before, after, rollbacks);
      throw error;
    }
    this.depth--;
    if (this.depth === 0) this.committed();
    return result;
  }

  /** Runs `hook` once, just before the outermost commit of the open unit (inside it: a throw rolls back). Registering the same hook twice runs it once. */
  beforeCommit(hook: () => void): void {
    if (this.depth === 0) throw new Error("beforeCommit outside a unit of work");
    if (!this.beforeCommits.includes(hook)) this.beforeCommits.push(hook);
  }

  /** Runs `fn` once the open unit has committed (at once outside a unit); never if it, or the savepoint `fn` was registered in, rolls back. */
  afterCommit(fn: () => void): void {
    if (this.depth === 0) fn();
    else this.afterCommits.push(fn);
  }

  /** Runs `fn` if the open unit (or the savepoint it was registered in) rolls back. */
  onRollback(fn: () => void): void {
    if (this.depth === 0) throw new Error("onRollback outside a unit of work");
    this.rollbacks.push(fn);
  }

  /** Registers a part that writes late (see WriteBehind); for the store's lifetime. */
  writeBehind(part: WriteBehind): void {
    this.writeBehinds.push(part);
  }

  close(): void {
    this.sqlite.close();
  }

  private beforeOutermostCommit(): void {
    // By index: a hook may register another.
    for (let i = 0; i < this.beforeCommits.length; i++) this.beforeCommits[i]!();
    for (const part of this.writeBehinds) part.flush();
  }

  private rolledBack(before: number, after: number, rollbacks: number): void {
    this.beforeCommits.length = before;
    this.afterCommits.length = after;
    for (const part of this.writeBehinds) part.forget();
    if (this.rollbacks.length === rollbacks) return;
    const undo = this.rollbacks.splice(rollbacks);
    for (let i = undo.length - 1; i >= 0; i--) undo[i]!();
  }

  private committed(): void {
    this.beforeCommits.length = 0;
    this.rollbacks.length = 0;
    if (this.afterCommits.length === 0) return;
    // Taken first: a callback may open a unit of its own, which collects its own.
    const callbacks = this.afterCommits.splice(0);
    for (const fn of callbacks) {
      try {
        fn();
      } catch (error) {
        // The unit committed: its caller must not take it for failed (the sync batcher would
        // tell every worker of the batch that its sync did not happen). Said, and swallowed.
        console.error("loom: a callback after a commit failed:", error);
      }
    }
  }
}

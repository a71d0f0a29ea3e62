/**
 * The async unit of work on PostgreSQL: a pg.Pool; a unit takes a client of its own for a real
 * transaction (BEGIN … COMMIT, SAVEPOINTs inside), so units run at once and the engine's locks
 * order them. A unit that loses a deadlock (40P01) or a serialization check (40001) runs again
 * from the start, up to RETRIES more times after a short jittered wait, with what the failed
 * attempt registered (hooks, afterCommit callbacks) dropped and its onRollback callbacks run.
 *
 * int8 and numeric come back as JavaScript numbers (epoch milliseconds, ids and counts fit in
 * 2^53; one that does not throws rather than rounding), through parsers set on this pool's own
 * type table: pg's global one is left alone. A lost or refused connection surfaces as
 * StoreUnavailableError, and the client it happened on is discarded; such a unit is not retried
 * (lost during COMMIT, its outcome is unknown: the caller decides, as for any request that failed).
 */
import pg from "pg";
import {
  isRetryableConflict,
  NestedUnitError,
  StoreClosedError,
  StoreUnavailableError,
  type AsyncStore,
  type Params,
  type Query,
  type ReadOptions,
  type ReadTx,
  type Row,
  type RunResult,
  type Tx,
  type UnitOptions,
} from "./engine";
import { postgresPlaceholders } from "./placeholders";
import { currentUnit, runAfterCommits, runRead, runUnit, Unit, type Connection } from "./unit";

export interface PostgresStoreOptions {
  /** postgres://user@host:port/database */
  url: string;
  /** Connections at most (10 by default): units beyond that wait for a free one. */
  poolSize?: number;
  /** How long a unit waits for a connection before StoreUnavailableError (10 s by default). */
  connectionTimeoutMs?: number;
}

/** Attempts after the first when a unit hits a deadlock or a serialization failure. */
const RETRIES = 5;

/** Errors that mean the server is gone or refuses connections, not that the statement was wrong. */
const SYSTEM_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);
const LOST = /Connection terminated|connection error|not queryable|timeout exceeded when trying to connect|Cannot use a pool after calling end/i;

/** Whether the error, or one it was caused by (drizzle wraps the driver's), says the server is unreachable. */
export function isUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e != null && depth < 5; e = (e as { cause?: unknown }).cause, depth++) if (unreachable(e)) return true;
  return false;
}

function unreachable(error: unknown): boolean {
  if (error instanceof StoreUnavailableError) return true;
  if (error instanceof pg.DatabaseError) {
    const code = error.code ?? "";
    // Class 08 but 08P01 (a protocol violation: wrong parameter count), admin or crash shutdown, starting up, too many connections.
    return (code.startsWith("08") && code !== "08P01") || /^57P0[123]$/.test(code) || code === "53300";
  }
  const { code, message } = error as { code?: unknown; message?: unknown };
  return (typeof code === "string" && SYSTEM_CODES.has(code)) || (typeof message === "string" && LOST.test(message));
}

/** The error as a StoreUnavailableError (already one: itself). */
export function unavailable(error: unknown): StoreUnavailableError {
  if (error instanceof StoreUnavailableError) return error;
  return new StoreUnavailableError(`PostgreSQL is unavailable: ${(error as Error)?.message ?? String(error)}`, { cause: error });
}

function parseInt8(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`the int8 value ${value} does not fit a JavaScript number`);
  return n;
}

const BEGIN: Record<NonNullable<UnitOptions["isolation"]>, string> = {
  "read committed": "BEGIN",
  "repeatable read": "BEGIN ISOLATION LEVEL REPEATABLE READ",
  serializable: "BEGIN ISOLATION LEVEL SERIALIZABLE",
};

class PostgresConnection implements Connection {
  /** The error that broke the connection: the client is discarded when released. */
  broken: unknown = null;
  /** A deadlock or serialization failure no savepoint rollback has undone: the unit is to be retried. */
  doomed: { depth: number } | null = null;
  private depth = 0;
  private readonly onError = (error: unknown) => void (this.broken ??= error);

  constructor(readonly client: pg.PoolClient) {
    // Checked out, a client has no error listener of the pool's: one lost while the unit awaits something else would crash the process.
    client.on("error", this.onError);
  }

  async query(query: Query<unknown>, params: Params): Promise<pg.QueryResult<Row>> {
    if (this.broken) throw unavailable(this.broken);
    const config: pg.QueryConfig =
      typeof query === "string" ? { text: postgresPlaceholders(query), values: params as unknown[] } : { name: query.name, text: postgresPlaceholders(query.sql), values: params as unknown[] };
    try {
      return await this.client.query<Row>(config);
    } catch (error) {
      if (isUnavailable(error)) {
        this.broken ??= error;
        throw unavailable(error);
      }
      if (isRetryableConflict(error)) this.doomed ??= { depth: this.depth };
      throw error;
    }
  }

  async all(query: Query<unknown>, params: Params): Promise<Row[]> {
    return (await this.query(query, params)).rows;
  }

  async get(query: Query<unknown>, params: Params): Promise<Row | undefined> {
    return (await this.query(query, params)).rows[0];
  }

  async run(query: Query<unknown>, params: Params): Promise<RunResult> {
    return { changes: (await this.query(query, params)).rowCount ?? 0 };
  }

  async exec(sql: string): Promise<pg.QueryResult<Row>> {
    return this.query(sql, []);
  }

  async commit(): Promise<void> {
    const result = await this.exec("COMMIT");
    // COMMIT of a transaction an error aborted (caught and ignored by fn) rolls back instead, without an error of its own.
    if (result.command === "ROLLBACK") throw new Error("the unit's transaction was aborted by an earlier error (caught inside it) and rolled back");
  }

  async rollback(): Promise<void> {
    if (this.broken) return;
    try {
      await this.exec("ROLLBACK");
    } catch (error) {
      this.broken ??= error;
    }
  }

  async savepoint(level: number): Promise<void> {
    await this.exec(`SAVEPOINT unit_${level}`);
    this.depth = level;
  }

  async release(level: number): Promise<void> {
    await this.exec(`RELEASE SAVEPOINT unit_${level}`);
    this.depth = level - 1;
  }

  async rollbackTo(level: number): Promise<void> {
    // One round trip (the simple protocol takes both).
    await this.exec(`ROLLBACK TO SAVEPOINT unit_${level}; RELEASE SAVEPOINT unit_${level}`);
    this.depth = level - 1;
    if (this.doomed && this.doomed.depth >= level) this.doomed = null;
  }

  /** Back to the pool, or closed when it broke. */
  end(): void {
    this.client.removeListener("error", this.onError);
    this.client.release(this.broken ? (this.broken instanceof Error ? this.broken : true) : undefined);
  }
}

export class PostgresStore implements AsyncStore {
  readonly engine = "postgres" as const;
  readonly pool: pg.Pool;
  private closing: Promise<void> | null = null;
  /** Units admitted and not yet finished: close() waits for them. */
  private running = 0;
  private drained: (() => void) | null = null;

  constructor(options: PostgresStoreOptions) {
    const types = new pg.TypeOverrides();
    types.setTypeParser(pg.types.builtins.INT8, parseInt8);
    types.setTypeParser(pg.types.builtins.NUMERIC, Number);
    // Flags read as 1 and 0, as SQLite stores them: a row has one shape on both engines (rows.ts).
    types.setTypeParser(pg.types.builtins.BOOL, (value: string) => (value === "t" ? 1 : 0));
    this.pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10, connectionTimeoutMillis: options.connectionTimeoutMs ?? 10_000, types });
    // An idle client that loses its connection: the pool drops it, the next unit connects anew (or gets StoreUnavailableError).
    this.pool.on("error", () => {});
  }

  async transaction<T>(fn: (tx: Tx) => Promise<T>, options?: UnitOptions): Promise<T> {
    this.admit("store.transaction");
    const begin = BEGIN[options?.isolation ?? "read committed"];
    this.running++;
    try {
      for (let attempt = 0; ; attempt++) {
        const connection = await this.connect();
        const unit = new Unit(this, "postgres", connection, true);
        let result: T;
        try {
          await connection.exec(begin);
          result = await runUnit(unit, fn);
        } catch (error) {
          connection.end();
          // Doomed by a failure the caller caught, or ended by one it let through (from a savepoint too).
          if ((connection.doomed || isRetryableConflict(error)) && !connection.broken && attempt < RETRIES) {
            await delay(retryDelayMs(attempt));
            continue;
          }
          throw error;
        }
        connection.end();
        runAfterCommits(unit);
        return result;
      }
    } finally {
      this.left();
    }
  }

  async read<T>(fn: (tx: ReadTx) => Promise<T>, options?: ReadOptions): Promise<T> {
    this.admit("store.read");
    const consistent = options?.consistent === true;
    this.running++;
    try {
      const connection = await this.connect();
      try {
        if (consistent) await connection.exec("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
        const result = await runRead(new Unit(this, "postgres", connection, false), fn);
        if (consistent) await connection.commit();
        return result;
      } catch (error) {
        if (consistent) await connection.rollback();
        throw error;
      } finally {
        connection.end();
      }
    } finally {
      this.left();
    }
  }

  /** Waits for the units admitted before it (retries included), then closes every connection. */
  close(): Promise<void> {
    if (currentUnit(this)) return Promise.reject(new NestedUnitError("store.close"));
    return (this.closing ??= this.closeAfterRunning());
  }

  /** A client for work outside units (migrations: open-store.ts), or StoreUnavailableError. */
  async connectClient(): Promise<pg.PoolClient> {
    if (this.closing) throw new StoreClosedError();
    return this.checkout();
  }

  private async checkout(): Promise<pg.PoolClient> {
    try {
      return await this.pool.connect();
    } catch (error) {
      throw unavailable(error);
    }
  }

  private async connect(): Promise<PostgresConnection> {
    return new PostgresConnection(await this.checkout());
  }

  private admit(what: string): void {
    if (this.closing) throw new StoreClosedError();
    if (currentUnit(this)) throw new NestedUnitError(what);
  }

  private left(): void {
    if (--this.running === 0) this.drained?.();
  }

  private async closeAfterRunning(): Promise<void> {
    // A pool that is ending hands out no more clients: units still waiting for one would hang.
    if (this.running > 0) await new Promise<void>((resolve) => (this.drained = resolve));
    await this.pool.end();
  }
}

/** 2.5–7.5 ms after the first failure, doubling after each: the two sides of a deadlock do not meet again at once. */
function retryDelayMs(attempt: number): number {
  return 5 * 2 ** attempt * (0.5 + Math.random());
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Leadership: the work that must run once per farm (declaring silent workers lost, taking back
 * unstarted assignments, removing job creations a dead replica left half done) runs on one server
 * process at a time.
 *
 * On SQLite there is one server process per database file: it always leads (SoloLeadership).
 *
 * On PostgreSQL several replicas share the database. Each holds one dedicated connection (not a
 * pool's) and asks, every `intervalMs`, for a session advisory lock (`pg_try_advisory_lock`); the
 * one that gets it leads for as long as its connection lives. PostgreSQL frees the lock the moment
 * that session ends: the leader stops, crashes (kill -9 closes its socket), or goes silent past the
 * session's `idle_session_timeout` (a frozen process or a lost host: the live leader speaks every
 * interval, so the timeout never ends a healthy session). The next replica to ask then leads,
 * within an interval or two.
 *
 * Each new leader bumps the farm's leader epoch (the server_state row `leader_epoch`) as it takes
 * over. Leader work runs in units that first read the epoch `FOR SHARE` and roll back when it is
 * not theirs (`fence`, `runAsLeader`): a replica that lost the lock without knowing it yet (its process was
 * frozen, its connection cut) finds another epoch and stops; the takeover's bump waits for a
 * running leader unit to commit, so two leaders' units never interleave.
 *
 * Session advisory locks need a session that stays one: behind a transaction-pooling proxy
 * (PgBouncer in transaction mode) point `LOOM_DATABASE_URL` at PostgreSQL itself (README).
 */
import pg from "pg";
import { endSession } from "./pg-session";
import type { AsyncStore, Tx } from "./engine/engine";

/** The advisory lock key of leadership ("Lead" in ASCII); migrations use another (open-store.ts). */
export const LEADER_LOCK = 0x4c656164;
const EPOCH_KEY = "leader_epoch";

/** Leader work found that this process does not lead (any more): its unit is rolled back. */
export class NotLeaderError extends Error {}

/** Runs first in each unit of once-per-farm work (Leadership.fence); throws NotLeaderError to roll it back. */
export type LeaderFence = (tx: Tx) => Promise<void>;

export interface Leadership {
  /** Whether this process leads now (as far as it knows: leader work is fenced by `fence`). */
  readonly isLeader: boolean;
  /** The epoch of this process's leadership, null while it does not lead. */
  readonly epoch: number | null;
  /**
   * Call first in a unit of leader work: throws NotLeaderError (so the unit changes nothing)
   * unless this process leads and the farm's epoch is still its own. Holds the epoch for the rest
   * of the unit: a takeover waits for the unit to commit.
   */
  fence(tx: Tx): Promise<void>;
  /**
   * Runs fn in a unit of `store` fenced by `fence`; resolves to undefined (nothing done) when this
   * process does not lead.
   */
  runAsLeader<T>(store: AsyncStore, fn: (tx: Tx) => Promise<T>): Promise<T | undefined>;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** SQLite: one server process per database; it leads. */
export class SoloLeadership implements Leadership {
  readonly isLeader = true;
  readonly epoch = 1;

  async fence(): Promise<void> {}

  runAsLeader<T>(store: AsyncStore, fn: (tx: Tx) => Promise<T>): Promise<T | undefined> {
    return store.transaction(fn);
  }

  async start(): Promise<void> {}
  async stop(): Promise<void> {}
}

export interface PostgresLeadershipOptions {
  /** The database URL (or a node-postgres client config). */
  connection: string | pg.ClientConfig;
  /** How often the lock is asked for, and the leader's session kept alive (1 s by default). */
  intervalMs?: number;
  /** How long the leader's session may stay silent before PostgreSQL ends it (5 s by default; at least 2 intervals). */
  silenceMs?: number;
  /** Told when this process starts or stops leading. */
  onChange?: (leading: boolean, epoch: number | null) => void;
  log?: (message: string) => void;
}

const BUMP_EPOCH = `INSERT INTO server_state (key, value, updated_at) VALUES ('${EPOCH_KEY}', '1', $1)
  ON CONFLICT (key) DO UPDATE SET value = (CAST(server_state.value AS BIGINT) + 1)::text, updated_at = excluded.updated_at
  RETURNING value`;
const READ_EPOCH_FOR_SHARE = `SELECT value FROM server_state WHERE key = '${EPOCH_KEY}' FOR SHARE`;

export class PostgresLeadership implements Leadership {
  private client: pg.Client | null = null;
  private pid: number | null = null;
  private currentEpoch: number | null = null;
  private timer: NodeJS.Timeout | null = null;
  private busy = false;
  private stopped = false;
  private readonly intervalMs: number;
  private readonly silenceMs: number;
  private readonly log: (message: string) => void;

  constructor(private readonly options: PostgresLeadershipOptions) {
    this.intervalMs = options.intervalMs ?? 1_000;
    this.silenceMs = Math.max(options.silenceMs ?? 5_000, 2 * this.intervalMs);
    this.log = options.log ?? ((message) => console.warn(message));
  }

  get isLeader(): boolean {
    return this.currentEpoch !== null;
  }

  get epoch(): number | null {
    return this.currentEpoch;
  }

  /** The server process of the lock connection (null while there is none): tests end it to stage a loss. */
  get backendPid(): number | null {
    return this.client === null ? null : this.pid;
  }

  async fence(tx: Tx): Promise<void> {
    const epoch = this.currentEpoch;
    const client = this.client;
    if (epoch === null) throw new NotLeaderError("this server does not lead the farm");
    // The epoch row stays share-locked until the unit ends, and a takeover waits for it: a leader
    // frozen or cut off mid-unit must not keep it for ever (PostgreSQL ends such a session).
    await tx.run(`SET LOCAL idle_in_transaction_session_timeout = ${Math.round(this.silenceMs)}`);
    const row = await tx.get<{ value: string }>(READ_EPOCH_FOR_SHARE);
    if (row === undefined || Number(row.value) !== epoch) {
      const why = `another replica leads now (epoch ${row?.value ?? "unknown"}, this one had ${epoch})`;
      // The session this epoch was won on is let go too: whatever lock it still holds goes with it, and it asks again.
      if (client) this.dropped(client, why);
      if (this.currentEpoch === epoch) this.lose(why);
      throw new NotLeaderError(why);
    }
  }

  async runAsLeader<T>(store: AsyncStore, fn: (tx: Tx) => Promise<T>): Promise<T | undefined> {
    if (this.currentEpoch === null) return undefined;
    try {
      return await store.transaction(async (tx) => {
        await this.fence(tx);
        return fn(tx);
      });
    } catch (error) {
      if (error instanceof NotLeaderError) return undefined;
      throw error;
    }
  }

  /** Asks for the lock once now (a wrong URL rejects, rather than retrying forever), then every interval. */
  async start(): Promise<void> {
    if (this.stopped) throw new Error("this leadership was stopped");
    await this.connect();
    await this.tick();
    this.timer = setInterval(() => void this.tick(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    const client = this.client;
    this.client = null;
    if (this.currentEpoch !== null) this.lose("this server is stopping");
    if (!client) return;
    // Ending the session frees the lock for the next replica at once.
    await endSession(client);
  }

  private async connect(): Promise<void> {
    const config = typeof this.options.connection === "string" ? { connectionString: this.options.connection } : this.options.connection;
    const client = new pg.Client({
      application_name: "loom leader",
      keepAlive: true,
      connectionTimeoutMillis: 10_000,
      // A statement the server does not answer (a cut network) fails, and leadership goes with it.
      query_timeout: this.silenceMs,
      ...config,
    });
    client.on("error", (error) => this.dropped(client, error.message));
    client.on("end", () => this.dropped(client, "the connection ended"));
    try {
      await client.connect();
      // A leader that stops speaking (frozen, or its host gone) loses its session and so the lock.
      await client.query(`SET idle_session_timeout = ${Math.round(this.silenceMs)}`);
      this.pid = (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
    } catch (error) {
      client.connection.stream.destroy();
      throw error;
    }
    if (this.stopped) return void client.end().catch(() => undefined);
    this.client = client;
  }

  private async tick(): Promise<void> {
    if (this.busy || this.stopped) return;
    this.busy = true;
    try {
      if (this.client === null) await this.connect();
      const client = this.client;
      if (client === null) return;
      if (this.currentEpoch !== null) {
        // The leader speaks every interval: its session never reaches the idle timeout.
        await client.query("SELECT 1");
        return;
      }
      const locked = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock($1) AS ok", [LEADER_LOCK]);
      if (!locked.rows[0]?.ok) return;
      const bumped = await client.query<{ value: string }>(BUMP_EPOCH, [Date.now()]);
      if (this.client !== client) return; // lost while taking over: the lock went with the session
      this.currentEpoch = Number(bumped.rows[0]!.value);
      this.log(`loom: this server leads the farm's once-per-farm work (epoch ${this.currentEpoch})`);
      this.options.onChange?.(true, this.currentEpoch);
    } catch (error) {
      const client = this.client;
      if (client) this.dropped(client, (error as Error).message);
    } finally {
      this.busy = false;
    }
  }

  private dropped(client: pg.Client, why: string): void {
    if (this.client !== client) return;
    this.client = null;
    // Gone with the session (or about to be): nothing this process does may count as the leader's.
    client.connection.stream.destroy();
    if (this.currentEpoch !== null) this.lose(`its leader connection was lost (${why})`);
    else if (!this.stopped) this.log(`loom: the leadership connection was lost (${why}); asking again`);
  }

  private lose(why: string): void {
    const epoch = this.currentEpoch;
    this.currentEpoch = null;
    this.log(`loom: this server no longer leads (epoch ${epoch}): ${why}`);
    this.options.onChange?.(false, null);
  }
}

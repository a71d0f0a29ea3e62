/**
 * Farm events across server replicas on PostgreSQL: LISTEN/NOTIFY on one channel.
 *
 * Sending: `notifyInTransaction` runs `pg_notify` in the unit's open transaction. PostgreSQL keeps the notification with that transaction and hands it to listeners
 * only if and when the transaction commits (a rollback, or a rollback to a savepoint taken before
 * it, drops it), and in commit order: that is what makes "delivered after commit" (events.ts) hold
 * on every replica, as it does in-process. Outside a transaction the statement commits by itself
 * and the notification goes at once. Within one transaction PostgreSQL keeps the order of the
 * notifications but folds identical ones (same name and payload) into the first: harmless, as all
 * of them arrive after the same commit and say the same.
 *
 * A notification is JSON `{ o: origin, n: name, p: payload }`. The origin names the sending
 * process: each process delivers its own events locally (FarmEventBus, after commit), and its
 * listener skips their echoes. PostgreSQL refuses a payload of 8000 bytes or more, and the refusal
 * aborts the whole transaction, so none is ever sent too large: an array payload (`jobs` with
 * thousands of ids) is split into several notifications of the same name under the limit that
 * together carry every id in order (`jobs` means "these changed": the parts say what the whole
 * said); anything else too large (no event today) goes as one `resync`.
 *
 * Receiving: `PostgresEventListener` holds one dedicated connection per process (not a pool's: it
 * stays in LISTEN for the process's life) and publishes other origins' events on the local bus.
 * Notifications sent while that connection is down are lost for good, so once it listens again it
 * publishes `resync`: live views and long polls read again (wakeups.ts); their periodic refresh
 * stays the safety net for anything else.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { endSession } from "./pg-session";
import type { AsyncStore, Tx, UnitLocal } from "./engine/engine";
import type { EventRelay, FarmEventBus, FarmEventName, FarmEvents, PayloadArgs } from "./events";

export const EVENTS_CHANNEL = "loom_events";

/** PostgreSQL's limit: a NOTIFY payload must be shorter than 8000 bytes (NOTIFY_PAYLOAD_MAX_LENGTH). */
export const MAX_NOTIFY_BYTES = 7999;

/** One event with its payload, as a unit collects them to send at its commit. */
export type FarmEvent = { [K in FarmEventName]: { name: K; payload: FarmEvents[K] } }[FarmEventName];

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);
const none = (payload: unknown) => payload === undefined;

/**
 * Each payload's shape, checked on receipt: a notification is text that any client of the
 * database can send. Typed over FarmEvents, so a new event does not compile without its check.
 */
const PAYLOAD_CHECKS: { [K in FarmEventName]: (payload: unknown) => boolean } = {
  jobs: (p) => Array.isArray(p) && p.every((id) => typeof id === "string"),
  logs: (p) => isRecord(p) && typeof p.sessionId === "string" && typeof p.jobId === "string",
  workers: none,
  "worker-status": none,
  pools: none,
  access: none,
  resync: none,
};

export const FARM_EVENT_NAMES = Object.keys(PAYLOAD_CHECKS) as FarmEventName[];

/** A process's origin id: short, as every notification carries it. */
export function newEventOrigin(): string {
  return randomBytes(9).toString("base64url");
}

const bytes = (text: string) => Buffer.byteLength(text, "utf8");

/** The notification payloads for one event: one, several parts of an array, or one `resync`. */
export function encodeEvent(origin: string, event: FarmEvent): string[] {
  const whole = JSON.stringify({ o: origin, n: event.name, p: event.payload });
  if (bytes(whole) <= MAX_NOTIFY_BYTES) return [whole];
  const parts = Array.isArray(event.payload) ? splitArray(origin, event.name, event.payload) : null;
  return parts ?? [JSON.stringify({ o: origin, n: "resync" })];
}

/** The array in consecutive parts, each as full as the limit allows; null when one item alone does not fit. */
function splitArray(origin: string, name: FarmEventName, items: readonly unknown[]): string[] | null {
  const part = (from: number, to: number) => JSON.stringify({ o: origin, n: name, p: items.slice(from, to) });
  const overhead = bytes(part(0, 0));
  const parts: string[] = [];
  let start = 0;
  let size = overhead;
  for (let i = 0; i < items.length; i++) {
    const item = bytes(JSON.stringify(items[i]) ?? "null");
    if (overhead + item > MAX_NOTIFY_BYTES) return null;
    const added = i > start ? item + 1 : item; // the comma
    if (size + added <= MAX_NOTIFY_BYTES) {
      size += added;
      continue;
    }
    parts.push(part(start, i));
    start = i;
    size = overhead + item;
  }
  parts.push(part(start, items.length));
  return parts;
}

// A function scan yields the array in order, and each row's pg_notify runs as it is read.
const NOTIFY_ALL = "SELECT pg_notify(?, m) FROM json_array_elements_text(CAST(? AS json)) AS m";

/** Sends one event with the unit's transaction (see the header: delivered once it commits). */
export async function notifyInTransaction<K extends FarmEventName>(tx: Tx, origin: string, name: K, ...[payload]: PayloadArgs<K>): Promise<void> {
  await notifyAllInTransaction(tx, origin, [{ name, payload } as FarmEvent]);
}

/** Sends the events, in order, with one statement of the unit (what a unit published, flushed before its COMMIT). */
export async function notifyAllInTransaction(tx: Tx, origin: string, events: readonly FarmEvent[]): Promise<void> {
  const messages = events.flatMap((event) => encodeEvent(origin, event));
  if (messages.length > 0) await tx.run(NOTIFY_ALL, [EVENTS_CHANNEL, JSON.stringify(messages)]);
}

/** A received notification's event, or null when it is not one (not JSON, an unknown name, a payload of the wrong shape). */
export function decodeEvent(text: string | undefined): { origin: string; event: FarmEvent } | null {
  let value: unknown;
  try {
    value = JSON.parse(text ?? "");
  } catch {
    return null;
  }
  if (!isRecord(value) || typeof value.o !== "string" || typeof value.n !== "string" || !Object.hasOwn(PAYLOAD_CHECKS, value.n)) return null;
  const name = value.n as FarmEventName;
  if (!PAYLOAD_CHECKS[name](value.p)) return null;
  return { origin: value.o, event: { name, payload: value.p } as FarmEvent };
}

export interface EventListenerOptions {
  /** The farm's database (notifications do not cross databases). */
  connection: string | pg.ClientConfig;
  /** Where other origins' events are published; they arrive outside any unit of work, so it delivers them at once. */
  bus: FarmEventBus;
  /** This process's origin (newEventOrigin()), the one its notifyInTransaction calls send. */
  origin: string;
  /** The wait before the first attempt to connect again; it doubles per failed attempt, up to maxRetryMs. */
  retryMs?: number;
  maxRetryMs?: number;
  /**
   * How often the idle connection is checked with a query, and how long its answer may take: a
   * server or network that vanished without closing the TCP connection would otherwise go
   * unnoticed for minutes, and so would every event missed meanwhile.
   */
  pingMs?: number;
  pingTimeoutMs?: number;
  log?: (message: string) => void;
}

/** One process's LISTEN connection: other replicas' events onto the local bus (see the header). */
export class PostgresEventListener {
  private client: pg.Client | null = null;
  private pid: number | null = null;
  private retryTimer: NodeJS.Timeout | null = null;
  private pingTimer: NodeJS.Timeout | null = null;
  private pinging = false;
  private lostAt = 0;
  private stopped = false;
  private reconnectCount = 0;
  private readonly log: (message: string) => void;

  constructor(private readonly options: EventListenerOptions) {
    this.log = options.log ?? ((message) => console.warn(message));
  }

  get listening(): boolean {
    return this.client !== null;
  }

  /** The server process of the LISTEN connection (null while there is none). */
  get backendPid(): number | null {
    return this.pid;
  }

  /** How many times the connection was lost and listening again. */
  get reconnects(): number {
    return this.reconnectCount;
  }

  /** Connects and listens; rejects when that fails (a wrong URL stops the server rather than retrying forever). */
  async start(): Promise<void> {
    if (this.stopped) throw new Error("this event listener was stopped");
    await this.connect();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const client = this.client;
    if (!client) return;
    this.detach();
    await endSession(client);
  }

  private async connect(): Promise<void> {
    const config = typeof this.options.connection === "string" ? { connectionString: this.options.connection } : this.options.connection;
    // A timeout, so that an attempt to reach a server that does not answer fails and is retried.
    const client = new pg.Client({ application_name: "loom events", keepAlive: true, connectionTimeoutMillis: 10_000, ...config });
    // Errors of a connection that is not (or no longer) the current one are the attempt's or ignored.
    client.on("error", (error) => this.lost(client, error.message));
    client.on("end", () => this.lost(client, "the connection ended"));
    client.on("notification", (message) => this.receive(message));
    let pid: number;
    try {
      await client.connect();
      await client.query(`LISTEN ${EVENTS_CHANNEL}`);
      pid = (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
    } catch (error) {
      client.connection.stream.destroy();
      throw error;
    }
    if (this.stopped) return void client.end().catch(() => undefined);
    this.client = client;
    this.pid = pid;
    this.pingTimer = setInterval(() => void this.ping(client), this.options.pingMs ?? 10_000);
    this.pingTimer.unref();
  }

  private receive(message: pg.Notification): void {
    if (message.channel !== EVENTS_CHANNEL || this.stopped) return;
    const received = decodeEvent(message.payload);
    if (!received) return this.log(`dropped a malformed notification on ${EVENTS_CHANNEL}: ${JSON.stringify((message.payload ?? "").slice(0, 200))}`);
    if (received.origin === this.options.origin) return; // this process delivered it itself, after its commit
    const { name, payload } = received.event;
    // The pair was checked together (decodeEvent); the bus's per-name signature cannot see that.
    // Another replica's commit: delivered now, in no unit of this one.
    (this.options.bus.receive as (name: FarmEventName, payload?: unknown) => void).call(this.options.bus, name, payload);
  }

  private async ping(client: pg.Client): Promise<void> {
    if (this.pinging) return;
    this.pinging = true;
    const ms = this.options.pingTimeoutMs ?? 5_000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer to a ping within ${ms} ms`)), ms)));
    try {
      await Promise.race([client.query("SELECT 1"), timeout]);
    } catch (error) {
      this.lost(client, (error as Error).message);
    } finally {
      clearTimeout(timer);
      this.pinging = false;
    }
  }

  private lost(client: pg.Client, why: string): void {
    if (client !== this.client) return;
    this.detach();
    // Not end(): on a connection whose peer vanished it would wait for an answer that never comes.
    client.connection.stream.destroy();
    if (this.stopped) return;
    this.log(`the LISTEN connection for farm events was lost (${why}); connecting again, then announcing a resync`);
    this.lostAt = Date.now();
    this.retryLater(0);
  }

  /** Stops using the current connection (its events are ignored from now on); closing it is the caller's. */
  private detach(): void {
    this.client = null;
    this.pid = null;
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = null;
  }

  private retryLater(attempt: number): void {
    const delay = Math.min(this.options.maxRetryMs ?? 5_000, (this.options.retryMs ?? 100) * 2 ** attempt);
    this.retryTimer = setTimeout(() => void this.reconnect(attempt), delay);
    this.retryTimer.unref();
  }

  private async reconnect(attempt: number): Promise<void> {
    this.retryTimer = null;
    if (this.stopped) return;
    try {
      await this.connect();
    } catch (error) {
      if (this.stopped) return;
      this.log(`connecting again for farm events failed (attempt ${attempt + 1}: ${(error as Error).message}); retrying`);
      return this.retryLater(attempt + 1);
    }
    // Lost again at once: the next attempt announces the resync.
    if (this.stopped || !this.client) return;
    this.reconnectCount++;
    this.log(`listening for farm events again after ${Date.now() - this.lostAt} ms; announcing a resync`);
    this.options.bus.receive("resync");
  }
}

/** What one unit published, sent with its transaction just before COMMIT (a savepoint that rolls back takes its own with it). */
class PendingNotifications implements UnitLocal {
  private events: FarmEvent[] = [];

  constructor(private readonly origin: string) {}

  push(event: FarmEvent): void {
    this.events.push(event);
  }

  async flush(tx: Tx): Promise<void> {
    const events = this.events;
    this.events = [];
    await notifyAllInTransaction(tx, this.origin, events);
  }

  forget(): void {
    this.events = [];
  }
}

/**
 * The bus's relay on PostgreSQL (FarmEventBus.relayTo): an event published with a unit is sent
 * with that unit's transaction (pg_notify), so the other replicas hear it when, and only if, it
 * commits; one published outside every unit is sent in a unit of its own at once.
 */
export class PostgresEventRelay implements EventRelay {
  constructor(
    private readonly store: AsyncStore,
    private readonly origin: string,
    private readonly log: (message: string, error: unknown) => void = (message, error) => console.error(message, error),
  ) {}

  withUnit<K extends FarmEventName>(tx: Tx, name: K, payload: FarmEvents[K]): void {
    tx.local(this, () => new PendingNotifications(this.origin)).push({ name, payload } as FarmEvent);
  }

  now<K extends FarmEventName>(name: K, payload: FarmEvents[K]): void {
    this.store
      .transaction((tx) => notifyAllInTransaction(tx, this.origin, [{ name, payload } as FarmEvent]))
      .catch((error: unknown) => {
        // The other replicas' periodic refresh is the safety net for an event that could not be sent.
        this.log(`sending the farm event "${name}" to the other replicas failed`, error);
      });
  }
}

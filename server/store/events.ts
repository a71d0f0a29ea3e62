/**
 * Farm events: what changed, for live views (tRPC subscriptions) and long-polling workers. Each
 * event name has one payload type (FarmEvents). An event is published with the unit of work that
 * made the change (`publish(tx, …)`) and delivered once that unit commits, so a listener that reads
 * the database sees the change; one the unit rolls back (or the savepoint it was published in) is
 * never delivered. Code outside every unit (a timer, a change already committed) passes null. Every published
 * event that commits is delivered once, in publishing order: nothing is merged here (wakeups.ts
 * merges bursts for the views that want that).
 *
 * In-process for SQLite; the one place where PostgreSQL's LISTEN/NOTIFY plugs in (postgres-notifier.ts).
 */
import type { Tx } from "./engine/engine";

/** The "logs" event: lines of this Session (of this job) were stored. Live views skip others' uploads. */
export interface LogsEvent {
  sessionId: string;
  jobId: string;
}

export interface FarmEvents {
  /** These jobs (or their steps, tasks, priority) changed. */
  jobs: readonly string[];
  logs: LogsEvent;
  /** The fleet or dispatchable work changed: wakes idle workers waiting in their long poll. */
  workers: undefined;
  /** A worker's status changed: admin views only, so idle workers are not woken. */
  "worker-status": undefined;
  /** A pool was created or its token rotated. */
  pools: undefined;
  /** Who may do what changed (a role, a disabled account, a revoked session or token): open live views check their caller again. */
  access: undefined;
  /**
   * Anything may have changed: other replicas' events were lost (this one's LISTEN connection was
   * down) or too large to send (postgres-notifier.ts). Every live view and long poll reads again.
   */
  resync: undefined;
}

export type FarmEventName = keyof FarmEvents;

/** `publish(tx, "workers")` takes no payload; `publish(tx, "jobs", ids)` does. */
export type PayloadArgs<K extends FarmEventName> = FarmEvents[K] extends undefined ? [] : [payload: FarmEvents[K]];

export type FarmEventListener<K extends FarmEventName> = (payload: FarmEvents[K]) => void;

/**
 * Where a bus also sends what it publishes, for the other server replicas (PostgreSQL's
 * LISTEN/NOTIFY, postgres-notifier.ts): with the unit, so they hear it only if it commits; or,
 * for an event published outside every unit, at once.
 */
export interface EventRelay {
  withUnit<K extends FarmEventName>(tx: Tx, name: K, payload: FarmEvents[K]): void;
  now<K extends FarmEventName>(name: K, payload: FarmEvents[K]): void;
}

export class FarmEventBus {
  /** Copied on change, so a delivery runs over the listeners there were when it started. */
  private readonly listeners = new Map<FarmEventName, ReadonlyArray<FarmEventListener<never>>>();
  private relay: EventRelay | null = null;

  /** From now on every event published here also goes to the other replicas through `relay`. */
  relayTo(relay: EventRelay | null): void {
    this.relay = relay;
  }

  /**
   * Delivers the event once `tx`'s unit commits (never if it, or the savepoint `tx` belongs to,
   * rolls back); with null, now: only for code outside every unit.
   */
  publish<K extends FarmEventName>(tx: Tx | null, name: K, ...[payload]: PayloadArgs<K>): void {
    const event = payload as FarmEvents[K];
    if (tx) {
      tx.afterCommit(() => this.deliver(name, event));
      this.relay?.withUnit(tx, name, event);
    } else {
      this.deliver(name, event);
      this.relay?.now(name, event);
    }
  }

  /** An event another replica committed (its relay sent it): delivered here now, and not sent on. */
  receive<K extends FarmEventName>(name: K, ...[payload]: PayloadArgs<K>): void {
    this.deliver(name, payload as FarmEvents[K]);
  }

  /** Calls `listener` with every event named `name` from now on; returns the unsubscribe. */
  subscribe<K extends FarmEventName>(name: K, listener: FarmEventListener<K>): () => void {
    const entry = listener as FarmEventListener<never>;
    this.listeners.set(name, [...(this.listeners.get(name) ?? []), entry]);
    let subscribed = true;
    return () => {
      if (!subscribed) return;
      subscribed = false;
      const rest = (this.listeners.get(name) ?? []).filter((l) => l !== entry);
      if (rest.length > 0) this.listeners.set(name, rest);
      else this.listeners.delete(name);
    };
  }

  /**
   * Every event named `name` from now on, queued until read (none is skipped), until `signal`
   * aborts or the loop stops: then the iteration ends.
   */
  stream<K extends FarmEventName>(name: K, signal?: AbortSignal): AsyncIterableIterator<FarmEvents[K]> {
    const queue: Array<FarmEvents[K]> = [];
    let waiting: ((result: IteratorResult<FarmEvents[K], undefined>) => void) | null = null;
    let ended = false;
    const unsubscribe = this.subscribe(name, (payload) => {
      if (!waiting) return void queue.push(payload);
      const resolve = waiting;
      waiting = null;
      resolve({ done: false, value: payload });
    });
    const end = () => {
      if (ended) return;
      ended = true;
      unsubscribe();
      signal?.removeEventListener("abort", end);
      queue.length = 0;
      waiting?.({ done: true, value: undefined });
      waiting = null;
    };
    if (signal?.aborted) end();
    else signal?.addEventListener("abort", end);
    return {
      [Symbol.asyncIterator]() {
        return this;
      },
      next() {
        if (queue.length > 0) return Promise.resolve({ done: false, value: queue.shift()! });
        if (ended) return Promise.resolve({ done: true, value: undefined });
        return new Promise((resolve) => (waiting = resolve));
      },
      return() {
        end();
        return Promise.resolve({ done: true, value: undefined });
      },
    };
  }

  /** How many listeners an event has (tests check that views let go of theirs). */
  listenerCount(name: FarmEventName): number {
    return this.listeners.get(name)?.length ?? 0;
  }

  private deliver<K extends FarmEventName>(name: K, payload: FarmEvents[K]): void {
    const listeners = this.listeners.get(name) as ReadonlyArray<FarmEventListener<K>> | undefined;
    if (!listeners) return;
    for (const listener of listeners) {
      try {
        listener(payload);
      } catch (error) {
        // The change is committed and the other listeners must still hear of it: the publisher
        // (often after its commit) is not the one to fail for a view's bug.
        console.error(`a listener of the farm event "${name}" failed`, error);
      }
    }
  }
}

/**
 * Group commit for worker syncs. Every sync is its own transaction in meaning, but committing one
 * transaction per sync spends most of a sync's time writing the commit (anchors-scheduling §5:
 * fsync, not computation, sets the ceiling). Syncs that arrive while no batch is being run (in the
 * same turn of the event loop, or while the previous batch commits) run together in one unit of
 * work, each inside its own savepoint (`tx.transaction`; each sync's count changes and events go
 * with its savepoint): a sync that fails rolls back alone, and every reply is sent (and every
 * event delivered) only after the shared commit, so nothing is acknowledged before it is durable.
 */
import type { SyncRequest, SyncResponse } from "../../lib/farm/protocol";
import { isRetryableConflict, type Tx } from "../store/engine/engine";
import type { WorkerIdentity } from "./authenticate-worker";
import type { Farm } from "../context/farm";
import { isStoreFull } from "./store-health";
import { syncWorker } from "./sync-worker";

interface Pending {
  caller: WorkerIdentity;
  request: SyncRequest;
  resolve: (response: SyncResponse) => void;
  reject: (error: unknown) => void;
}

/** More than this many waiting syncs are committed in several transactions. */
const MAX_BATCH = 256;

class SyncBatcher {
  private queue: Pending[] = [];
  /** A flush is scheduled or running: syncs arriving meanwhile wait for its next batch. */
  private scheduled = false;
  /** The sync `runCurrent` makes: one savepoint at a time, so one function serves them all (no closure per sync). */
  private current: Pending | null = null;
  private readonly runCurrent = (tx: Tx): Promise<SyncResponse> => {
    const item = this.current as Pending;
    return syncWorker(this.farm, tx, item.caller, item.request);
  };

  constructor(private readonly farm: Farm) {}

  sync(caller: WorkerIdentity, request: SyncRequest): Promise<SyncResponse> {
    return new Promise((resolve, reject) => {
      this.queue.push({ caller, request, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    try {
      while (this.queue.length > 0) await this.commit(this.queue.splice(0, MAX_BATCH));
    } finally {
      this.scheduled = false;
    }
  }

  private async commit(batch: Pending[]): Promise<void> {
    const outcomes: Array<{ ok: true; response: SyncResponse } | { ok: false; error: unknown }> = [];
    try {
      await this.farm.store.transaction(async (tx) => {
        // A unit PostgreSQL runs again (deadlock, serialization failure) starts the batch over.
        outcomes.length = 0;
        try {
          for (const item of batch) {
            this.current = item;
            try {
              outcomes.push({ ok: true, response: await tx.transaction(this.runCurrent) });
            } catch (error) {
              // SQLite ends the whole transaction itself on a full disk: the syncs before this one
              // are gone with it and the rest would run outside any unit. The batch fails as one
              // (each worker is told to send again: worker-api.ts).
              if (isStoreFull(error)) throw error;
              // Another unit's conflict (PostgreSQL: a deadlock, a stale read): the engine runs
              // the whole batch again, rather than this sync failing for a reason it did not cause.
              if (isRetryableConflict(error)) throw error;
              outcomes.push({ ok: false, error });
            }
          }
        } finally {
          this.current = null;
        }
      });
    } catch (error) {
      // The shared commit failed: no sync of the batch happened.
      for (const item of batch) item.reject(error);
      return;
    }
    batch.forEach((item, i) => {
      const outcome = outcomes[i] as (typeof outcomes)[number];
      if (outcome.ok) item.resolve(outcome.response);
      else item.reject(outcome.error);
    });
  }
}

const batchers = new WeakMap<Farm, SyncBatcher>();

/** The farm's batcher (one per farm, so every sync of a server shares its commits). */
export function syncBatcher(farm: Farm): SyncBatcher {
  let batcher = batchers.get(farm);
  if (!batcher) {
    batcher = new SyncBatcher(farm);
    batchers.set(farm, batcher);
  }
  return batcher;
}

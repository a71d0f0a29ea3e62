/**
 * Group commit for worker syncs. Every sync is its own transaction in meaning, but committing one
 * transaction per sync spends most of a sync's time writing the commit (anchors-scheduling §5:
 * fsync, not computation, sets the ceiling). Syncs that arrive in the same turn of the event loop
 * run together in one unit of work, each inside its own savepoint (store.ts; each sync's count
 * changes and events go with its savepoint): a sync that fails rolls back alone, and every reply
 * is sent (and every event delivered) only after the shared commit, so nothing is acknowledged
 * before it is durable.
 */
import type { SyncRequest, SyncResponse } from "../../lib/farm/protocol";
import type { WorkerIdentity } from "./authenticate-worker";
import type { Farm } from "../context/farm";
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
  private scheduled = false;

  constructor(private readonly farm: Farm) {}

  sync(caller: WorkerIdentity, request: SyncRequest): Promise<SyncResponse> {
    return new Promise((resolve, reject) => {
      this.queue.push({ caller, request, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      const outcomes: Array<{ ok: true; response: SyncResponse } | { ok: false; error: unknown }> = [];
      try {
        this.farm.store.transaction(() => {
          for (const item of batch) {
            try {
              outcomes.push({ ok: true, response: syncWorker(this.farm, item.caller, item.request) });
            } catch (error) {
              outcomes.push({ ok: false, error });
            }
          }
        });
      } catch (error) {
        // The shared commit failed: no sync of the batch happened.
        for (const item of batch) item.reject(error);
        continue;
      }
      batch.forEach((item, i) => {
        const outcome = outcomes[i] as (typeof outcomes)[number];
        if (outcome.ok) item.resolve(outcome.response);
        else item.reject(outcome.error);
      });
    }
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

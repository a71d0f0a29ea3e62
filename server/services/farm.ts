/**
 * The server-side context every service works with: the store, the scheduler's helpers over it,
 * the clock (injected, so tests and benchmarks control time) and the farm's settings.
 */
import { EventEmitter } from "node:events";
import { UpdateApplier } from "../scheduler/apply-updates";
import { Dispatcher } from "../scheduler/dispatch";
import { SessionStore } from "../scheduler/session-store";
import { TaskState } from "../scheduler/task-state";
import type { Store } from "../db/connection";

export interface FarmSettings {
  /** How often workers sync when nothing happens. */
  syncIntervalSeconds: number;
  /** A worker silent for this long is NOT_RESPONDING; its work is requeued. */
  workerTimeoutSeconds: number;
}

const DEFAULT_SETTINGS: FarmSettings = { syncIntervalSeconds: 15, workerTimeoutSeconds: 75 };

export interface Farm {
  store: Store;
  tasks: TaskState;
  sessions: SessionStore;
  updates: UpdateApplier;
  dispatcher: Dispatcher;
  settings: FarmSettings;
  now: () => number;
  /**
   * What changed, for live views (tRPC subscriptions) and long-polling workers: "jobs" (job ids),
   * "logs" (LogsEvent), "workers" (the fleet or dispatchable work changed: wakes idle workers),
   * "worker-status" (a worker's status changed; views only, so idle workers are not woken),
   * "pools" (created, token rotated). In-process today; one place to swap for LISTEN/NOTIFY.
   */
  events: EventEmitter;
}

export function createFarm(store: Store, options: { settings?: Partial<FarmSettings>; now?: () => number } = {}): Farm {
  const tasks = new TaskState(store);
  const sessions = new SessionStore(store);
  const events = new EventEmitter();
  events.setMaxListeners(0);
  return {
    store,
    tasks,
    sessions,
    updates: new UpdateApplier(store, sessions, tasks),
    dispatcher: new Dispatcher(store, sessions, tasks),
    settings: { ...DEFAULT_SETTINGS, ...options.settings },
    now: options.now ?? Date.now,
    events,
  };
}

/**
 * The server-side context every service works with: the store, the scheduler's helpers over it,
 * the clock (injected, so tests and benchmarks control time) and the farm's settings.
 */
import { UpdateApplier } from "../scheduler/apply-updates";
import { Dispatcher } from "../scheduler/dispatch";
import { SessionStore } from "../scheduler/session-store";
import { TaskState } from "../scheduler/task-state";
import { WorkerFailures } from "../scheduler/worker-failures";
import type { Store } from "../db/connection";
import { FarmEventBus } from "../store/events";
import { RetryAlarm } from "./retry-alarm";

export interface FarmSettings {
  /** How often workers sync when nothing happens. */
  syncIntervalSeconds: number;
  /** A worker silent for this long is NOT_RESPONDING; its work is requeued. */
  workerTimeoutSeconds: number;
  /** A browser session ends after this long without a request… */
  sessionIdleMinutes: number;
  /** …and this long after sign-in at the latest. */
  sessionMaxDays: number;
  /** Host names the server answers to besides loopback names and IP addresses (DNS rebinding). */
  allowedHosts: readonly string[];
  /** The address users reach the server at (set behind an HTTPS proxy: cookies become Secure). */
  publicUrl: string | null;
  /** After a pool token rotation the previous token still enrolls, and its workers still sync, this long. */
  rotationGraceMinutes: number;
  /** Failed sign-ins within loginWindowMinutes after which further attempts are refused unchecked. */
  loginFailuresPerAccount: number;
  loginFailuresPerAddress: number;
  loginWindowMinutes: number;
  /** Live views (SSE subscriptions) one user may hold open at once. */
  maxStreamsPerUser: number;
  /** Log text stored per action and per Session (characters); past it lines are dropped with one marker line. */
  logCapActionChars: number;
  logCapSessionChars: number;
  /** Workers not seen for this long are removed from the list (their credential revoked). */
  workerRetentionHours: number;
  /** A worker holding assigned work it has not started for this long loses it. */
  assignedTimeoutSeconds: number;
  /** Template checking, previews and job creation are stopped after this long. */
  checkTimeoutSeconds: number;
  /** The age after which admins are offered to archive or delete finished jobs. */
  jobRetentionDays: number;
  /** Where the server keeps its data (archives go in `archive/` inside); null for in-memory farms. */
  dataDir: string | null;
  /** The pool `loom serve`'s local workers enroll in (its token file is in the data folder). */
  localPoolName: string | null;
}

export const DEFAULT_SETTINGS: FarmSettings = {
  syncIntervalSeconds: 15,
  workerTimeoutSeconds: 75,
  sessionIdleMinutes: 12 * 60,
  sessionMaxDays: 7,
  allowedHosts: [],
  publicUrl: null,
  rotationGraceMinutes: 60,
  loginFailuresPerAccount: 10,
  loginFailuresPerAddress: 50,
  loginWindowMinutes: 15,
  maxStreamsPerUser: 32,
  logCapActionChars: 64 * 1024 * 1024,
  logCapSessionChars: 256 * 1024 * 1024,
  workerRetentionHours: 7 * 24,
  assignedTimeoutSeconds: 10 * 60,
  checkTimeoutSeconds: 20,
  jobRetentionDays: 30,
  dataDir: null,
  localPoolName: null,
};

export interface Farm {
  store: Store;
  tasks: TaskState;
  sessions: SessionStore;
  updates: UpdateApplier;
  dispatcher: Dispatcher;
  settings: FarmSettings;
  now: () => number;
  /** What changed, for live views and long-polling workers: typed, delivered after commit (server/store/events.ts). */
  events: FarmEventBus;
}

export function createFarm(store: Store, options: { settings?: Partial<FarmSettings>; now?: () => number } = {}): Farm {
  const tasks = new TaskState();
  const sessions = new SessionStore();
  const events = new FarmEventBus();
  const now = options.now ?? Date.now;
  const failures = new WorkerFailures();
  // A delayed retry coming due is dispatchable work: it wakes idle workers as a release does.
  const retries = new RetryAlarm(now, () => events.publish(null, "workers"));
  return {
    store,
    tasks,
    sessions,
    updates: new UpdateApplier(sessions, tasks, failures, (at) => retries.at(at)),
    dispatcher: new Dispatcher(sessions, tasks, failures),
    settings: { ...DEFAULT_SETTINGS, ...options.settings },
    now,
    events,
  };
}

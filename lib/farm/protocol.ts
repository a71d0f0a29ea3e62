/**
 * The worker protocol (HTTP + JSON). Workers pull: `sync` is the heartbeat, reports what happened
 * and returns what to do next. `register` is the only call made with the pool's enrollment token
 * (`Authorization: Bearer loom_enr_…`); it answers with the worker's own credential, which every
 * later call sends instead and which speaks for that worker alone (the body's workerId must be
 * its worker: 403 otherwise). A credential the server no longer takes (the worker was removed,
 * the pool's token rotated past its grace period) gets 401: enroll again. Every call after
 * `register` also carries the worker's lease epoch; a worker the server declared lost gets 409
 * and must stop everything, report nothing about it, and register again.
 *
 *   POST /api/worker/register  RegisterRequest → RegisterResponse  (pool token)
 *   POST /api/worker/sync      SyncRequest     → SyncResponse      (worker credential; 409 LEASE_CONFLICT when fenced)
 *   POST /api/worker/logs      LogsRequest     → LogsResponse      (worker credential; idempotent by seq)
 */
import { z } from "zod";
import type { ActionKind } from "./statuses";

export const PROTOCOL_PATHS = { register: "/api/worker/register", sync: "/api/worker/sync", logs: "/api/worker/logs" } as const;

const capabilities = z.object({
  amounts: z.record(z.string().min(1).max(100), z.number().finite().nonnegative()),
  attributes: z.record(z.string().min(1).max(100), z.array(z.string().max(100)).max(100)),
});

export const registerRequest = z.object({
  name: z.string().min(1).max(128),
  capabilities,
  /**
   * Random per agent process. A registration under a name whose worker is still connected is
   * refused (409 CONFLICT) unless it comes from the same process (fenced, registering again):
   * two agents started with one name must not take each other's lease in turn.
   */
  instanceId: z.string().min(8).max(100).optional(),
});
export type RegisterRequest = z.infer<typeof registerRequest>;

export interface RegisterResponse {
  workerId: string;
  leaseEpoch: number;
  /** How often to sync when nothing happens. */
  syncIntervalSeconds: number;
  /**
   * The worker's own bearer token for sync and logs (`loom_wkr_…`), shown this once: keep it in
   * memory only. Registering again replaces it.
   */
  credential: string;
  /** Characters of log text the server stores per action and per Session; past them lines are dropped. */
  logLimits: LogLimits;
}

export interface LogLimits {
  actionChars: number;
  sessionChars: number;
}

/**
 * The largest request body a worker sends (JSON, UTF-8). Well below the server's 16 MiB limit
 * for the worker API: the agent splits log batches and sync reports to stay under it.
 */
export const MAX_WORKER_BODY_BYTES = 8_000_000;

/** How an action ended, as the worker saw it. */
export const REPORTED_ACTION_STATUSES = ["RUNNING", "SUCCEEDED", "FAILED", "CANCELED", "TIMEOUT", "NEVER_ATTEMPTED", "INTERRUPTED"] as const;

export const actionUpdate = z.object({
  actionId: z.string().min(1).max(100),
  status: z.enum(REPORTED_ACTION_STATUSES),
  exitCode: z.number().int().nullable().optional(),
  progress: z.number().min(0).max(100).nullable().optional(),
  statusMessage: z.string().max(10_000).nullable().optional(),
  failMessage: z.string().max(10_000).nullable().optional(),
  startedAt: z.number().int().nullable().optional(),
  endedAt: z.number().int().nullable().optional(),
});
export type ActionUpdate = z.infer<typeof actionUpdate>;

export const syncRequest = z.object({
  workerId: z.string().min(1).max(100),
  leaseEpoch: z.number().int().positive(),
  /** Sessions the worker still holds (it ended the others). */
  sessions: z.array(z.string().max(100)).max(100),
  /**
   * Actions the worker holds that have not ended (queued or running). An assigned action missing
   * here and never reported was lost with a sync response: the server sends it again.
   */
  actions: z.array(z.string().max(100)).max(10_000).default([]),
  updates: z.array(actionUpdate).max(10_000),
  /** The worker is shutting down: give it no new work, only what ends its Sessions. */
  draining: z.boolean().optional(),
  /**
   * An idle worker (no Session, nothing to report) may let the server hold the sync up to this
   * many seconds until work appears, so a submitted job starts at once rather than at the next
   * interval. The answer is the same as a sync made at that moment.
   */
  waitSeconds: z.number().min(0).max(30).optional(),
});
export type SyncRequest = z.infer<typeof syncRequest>;

/** What a worker needs to recreate the submitted job with lib/openjd. */
export interface JobDefinition {
  id: string;
  templateText: string;
  templateFormat: "yaml" | "json";
  environmentTemplates: Array<{ text: string; format: "yaml" | "json" }>;
  parameters: Record<string, { type: string; value: string }>;
}

export interface AssignedAction {
  actionId: string;
  kind: ActionKind;
  /** ENV_*: the Session stack entry id (`template:0:Name`, `job:Name`, `step:Step:Name`). */
  environmentId?: string;
  /** The step whose environment (ENV_*) or task (TASK_RUN) this is. */
  stepName?: string;
  /** TASK_RUN: the task's parameter values. */
  parameters?: Record<string, { type: string; value: string }>;
}

export interface SessionAssignment {
  sessionId: string;
  job: JobDefinition;
  /** Run in order after anything already queued for the Session. */
  actions: AssignedAction[];
  /** After these actions the Session ends (its working directory is removed). */
  end: boolean;
}

export interface SyncResponse {
  leaseEpoch: number;
  syncIntervalSeconds: number;
  assignments: SessionAssignment[];
  /** Actions to cancel (running: its cancelation method; queued: never started). */
  cancel: string[];
  /** The admin disabled or drained the worker now: finish the exits, then stop. */
  stop: boolean;
}

/** The longest log line an upload may carry (the Session runtime already splits lines at 64,000). */
export const MAX_LOG_LINE_CHARS = 70_000;

export const logsRequest = z.object({
  workerId: z.string().min(1).max(100),
  leaseEpoch: z.number().int().positive(),
  sessionId: z.string().min(1).max(100),
  lines: z
    .array(
      z.object({
        seq: z.number().int().nonnegative(),
        actionId: z.string().max(100).nullable(),
        time: z.number().int(),
        line: z.string().max(MAX_LOG_LINE_CHARS),
      }),
    )
    .max(5_000),
});
export type LogsRequest = z.infer<typeof logsRequest>;

export interface LogsResponse {
  /** Every line with seq ≤ this is stored; the worker may drop them. */
  acknowledgedThrough: number;
}

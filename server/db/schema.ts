/**
 * The farm's tables (drizzle, SQLite dialect; kept portable to PostgreSQL: no SQLite-only types,
 * JSON stored as text, times as integer milliseconds since the epoch).
 *
 * Jobs keep their template and resolved parameter values, so a worker recreates exactly the job
 * that was submitted with lib/openjd. Steps and jobs keep per-status task counts (integer columns,
 * status-counts.ts), updated in the same transaction as every task status change, so dashboards
 * never count 100,000 rows.
 *
 * server/db/schema-postgres.ts declares the same tables for PostgreSQL; schema-parity.test.ts
 * keeps the two in step.
 */
import { sql } from "drizzle-orm";
import { index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import type { Role, TokenScope } from "../../lib/farm/access";
import type { ActionKind, ActionStatus, DrainMode, SessionState, TaskStatus, WorkerStatus } from "../../lib/farm/statuses";
import type { StoredDependency as ResolvedDependency } from "../../lib/farm/task-dependencies";
import { statusCountColumns } from "./status-counts";

const createdAt = () => integer("created_at").notNull();

export const pools = sqliteTable("pools", {
  id: text("id").primaryKey(),
  name: text("name").notNull().unique(),
  description: text("description").notNull().default(""),
  /** sha256 of the pool's bearer token; the token itself is shown once and never stored. */
  tokenHash: text("token_hash").notNull(),
  enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
  createdAt: createdAt(),
  /** When the token was last rotated (null: the token is the one made with the pool). */
  tokenRotatedAt: integer("token_rotated_at"),
  /**
   * Bumped by every rotation. Workers enrolled under the previous generation keep their
   * credential (and the previous token keeps enrolling) until previous_token_expires_at: the
   * rotation's grace period. Older generations are refused.
   */
  tokenGeneration: integer("token_generation").notNull().default(1),
  previousTokenHash: text("previous_token_hash"),
  previousTokenExpiresAt: integer("previous_token_expires_at"),
});

export const workers = sqliteTable(
  "workers",
  {
    id: text("id").primaryKey(),
    poolId: text("pool_id")
      .notNull()
      .references(() => pools.id),
    name: text("name").notNull(),
    /** The agent process that holds the name (see RegisterRequest.instanceId). */
    instanceId: text("instance_id"),
    status: text("status").$type<WorkerStatus>().notNull(),
    /** `{ amounts: {name: number}, attributes: {name: string[]} }` as lib/openjd/capabilities expects. */
    capabilities: text("capabilities", { mode: "json" }).notNull(),
    /** Bumped when the worker is declared lost or registers again: older reports are refused. */
    leaseEpoch: integer("lease_epoch").notNull().default(1),
    lastHeartbeatAt: integer("last_heartbeat_at").notNull(),
    drain: text("drain").$type<DrainMode>(),
    disabled: integer("disabled", { mode: "boolean" }).notNull().default(false),
    registeredAt: integer("registered_at").notNull(),
    /**
     * sha256 of the worker's own credential, issued when it enrolls with its pool's token: every
     * later call authenticates as this worker and no other. Null once revoked (removed, fenced
     * for good, or its pool's token generation expired).
     */
    credentialHash: text("credential_hash"),
    /** The pool token generation the worker enrolled under. */
    tokenGeneration: integer("token_generation").notNull().default(1),
    /** Not seen for longer than the retention: no longer listed, its credential revoked. */
    removedAt: integer("removed_at"),
  },
  (t) => [index("workers_pool").on(t.poolId), index("workers_status").on(t.status), uniqueIndex("workers_credential").on(t.credentialHash)],
);

/**
 * People and service accounts. A person signs in with a password (scrypt, never stored or
 * logged in clear); a service account (`local-admin`, the embedded default's) has no password
 * and acts only through its tokens. Disabling an account ends its sessions and tokens at once.
 */
export const users = sqliteTable("users", {
  id: text("id").primaryKey(),
  name: text("name").notNull().unique(),
  role: text("role").$type<Role>().notNull().default("artist"),
  createdAt: createdAt(),
  kind: text("kind").$type<"person" | "service">().notNull().default("person"),
  /** `scrypt$N$r$p$salt$hash` (base64url); null for service accounts. */
  passwordHash: text("password_hash"),
  disabled: integer("disabled", { mode: "boolean" }).notNull().default(false),
  updatedAt: integer("updated_at").notNull().default(0),
});

/**
 * Browser sessions: the cookie holds a random token, the table its sha256. A session ends at
 * its absolute expiry, after the idle limit without a request, or when revoked (sign out, the
 * account disabled).
 */
export const authSessions = sqliteTable(
  "auth_sessions",
  {
    id: text("id").primaryKey(),
    tokenHash: text("token_hash").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    lastSeenAt: integer("last_seen_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    revokedAt: integer("revoked_at"),
    address: text("address"),
    userAgent: text("user_agent"),
  },
  (t) => [index("auth_sessions_user").on(t.userId)],
);

/** Personal access tokens (scripts, `loom login`): shown once, stored as sha256, scoped, expiring, revocable. */
export const accessTokens = sqliteTable(
  "access_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull().unique(),
    scope: text("scope").$type<TokenScope>().notNull(),
    createdAt: createdAt(),
    /** null: never expires (only the local admin's token, kept in the data folder). */
    expiresAt: integer("expires_at"),
    lastUsedAt: integer("last_used_at"),
    lastUsedAddress: text("last_used_address"),
    revokedAt: integer("revoked_at"),
  },
  (t) => [index("access_tokens_user").on(t.userId)],
);

/**
 * Every change and every sign-in attempt, written in the transaction of the change itself.
 * Append-only: nothing updates or deletes rows (retention of the audit log itself is an export).
 */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    time: integer("time").notNull(),
    /** user, worker, shell (a `loom user` command on the server), system, anonymous. */
    actorKind: text("actor_kind").notNull(),
    actorId: text("actor_id"),
    actorName: text("actor_name").notNull(),
    /** session, token:<id>, pool-token, worker-credential, shell, setup. */
    via: text("via"),
    action: text("action").notNull(),
    targetKind: text("target_kind"),
    targetId: text("target_id"),
    /** ok, refused (not allowed, bad credentials, rate-limited), failed (allowed but it did not happen). */
    outcome: text("outcome").notNull(),
    before: text("before"),
    after: text("after"),
    detail: text("detail"),
    address: text("address"),
    userAgent: text("user_agent"),
  },
  (t) => [
    index("audit_time").on(t.time),
    index("audit_action_target").on(t.action, t.targetId, t.time),
    index("audit_action_address").on(t.action, t.address, t.time),
    index("audit_actor").on(t.actorName, t.time),
  ],
);

/** Server-wide values that must survive restarts and be shared by replicas (the first-start setup token's hash). */
export const serverState = sqliteTable("server_state", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

export const jobs = sqliteTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    /** Submission order; with priority it is the dispatch order. */
    seq: integer("seq").notNull().unique(),
    name: text("name").notNull(),
    description: text("description"),
    /** The submitting user's name when it was submitted (shown; owner_id is what rules use). */
    submitter: text("submitter").notNull().default("anonymous"),
    /** The user who submitted it: artists act on their own jobs. Null for jobs from before accounts. */
    ownerId: text("owner_id"),
    templateText: text("template_text").notNull(),
    templateFormat: text("template_format").$type<"yaml" | "json">().notNull(),
    environmentTemplates: text("environment_templates", { mode: "json" }).$type<Array<{ text: string; format: "yaml" | "json" }>>().notNull(),
    /** Resolved parameter values (PATHs absolute), as createJob returned them. */
    parameters: text("parameters", { mode: "json" }).$type<Record<string, { type: string; value: string }>>().notNull(),
    priority: integer("priority").notNull(),
    /** The wrangler's switch: SUSPENDED jobs dispatch nothing. */
    suspended: integer("suspended", { mode: "boolean" }).notNull().default(false),
    canceled: integer("canceled", { mode: "boolean" }).notNull().default(false),
    status: text("status").$type<TaskStatus>().notNull(),
    ...statusCountColumns((name) => integer(name).notNull().default(0)),
    taskCount: integer("task_count").notNull(),
    maxRetriesPerTask: integer("max_retries_per_task").notNull(),
    maxFailedTasks: integer("max_failed_tasks").notNull(),
    /** Tasks that used up their retries. */
    failedTaskCount: integer("failed_task_count").notNull().default(0),
    /** A retried task waits this × 2^(failures−1), capped (lib/farm/retry.ts), before it is dispatched again. */
    retryDelaySeconds: integer("retry_delay_seconds").notNull().default(5),
    /** Failed attempts on one worker after which it gets no more of this job's tasks (0: never kept away). */
    maxWorkerFailures: integer("max_worker_failures").notNull().default(3),
    submittedAt: integer("submitted_at").notNull(),
    startedAt: integer("started_at"),
    endedAt: integer("ended_at"),
  },
  (t) => [index("jobs_dispatch").on(t.status, t.priority, t.seq), index("jobs_submitted").on(t.submittedAt), index("jobs_owner").on(t.ownerId)],
);

/**
 * Job numbers (jobs.seq) come from the engine, never from MAX(seq)+1: a number is an INSERT
 * here (AUTOINCREMENT never hands out a number twice, even once its row and its job are gone).
 * Only the last row is kept. PostgreSQL: an identity column, the same INSERT … RETURNING.
 */
export const jobNumbers = sqliteTable("job_numbers", {
  number: integer("number").primaryKey({ autoIncrement: true }),
});

/** Room for seed 002: a user's request, satisfied by a (possibly shared) job. */
export const requests = sqliteTable("requests", {
  id: text("id").primaryKey(),
  jobId: text("job_id").references(() => jobs.id),
  userId: text("user_id").references(() => users.id),
  priority: integer("priority").notNull(),
  createdAt: createdAt(),
});

export const steps = sqliteTable(
  "steps",
  {
    id: text("id").primaryKey(),
    jobId: text("job_id")
      .notNull()
      .references(() => jobs.id, { onDelete: "cascade" }),
    stepIndex: integer("step_index").notNull(),
    name: text("name").notNull(),
    dependencies: text("dependencies", { mode: "json" }).$type<string[]>().notNull(),
    /**
     * Its dependencies as job creation resolved them (TASK_DEPENDENCIES): each one's kind, label and
     * edge count. The `step` and `step-any` ones not on the step itself are its step-level gates
     * (TaskState.settleJob); null for jobs from before it, whose dependencies are all whole-step.
     */
    resolvedDependencies: text("resolved_dependencies", { mode: "json" }).$type<ResolvedDependency[]>(),
    hostRequirements: text("host_requirements", { mode: "json" }),
    /** Names of the step environments; with the job's, the Session stack the step needs. */
    environmentStack: text("environment_stack").notNull(),
    chunked: integer("chunked", { mode: "boolean" }).notNull().default(false),
    status: text("status").$type<TaskStatus>().notNull(),
    ...statusCountColumns((name) => integer(name).notNull().default(0)),
    taskCount: integer("task_count").notNull(),
    /** Why no enabled pool can run it (NOT_COMPATIBLE). */
    incompatibleReason: text("incompatible_reason"),
    /** Sum and count of its successful task runtimes: how many tasks a worker may queue at once. */
    runtimeTotalMs: integer("runtime_total_ms").notNull().default(0),
    runtimeCount: integer("runtime_count").notNull().default(0),
  },
  (t) => [uniqueIndex("steps_job_index").on(t.jobId, t.stepIndex), uniqueIndex("steps_job_name").on(t.jobId, t.name)],
);

export const tasks = sqliteTable(
  "tasks",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    jobId: text("job_id")
      .notNull()
      .references(() => jobs.id, { onDelete: "cascade" }),
    stepId: text("step_id")
      .notNull()
      .references(() => steps.id, { onDelete: "cascade" }),
    taskIndex: integer("task_index").notNull(),
    /** `{name: {type, value}}`; a chunk's value is its range expression. */
    parameters: text("parameters").notNull(),
    status: text("status").$type<TaskStatus>().notNull(),
    /** Failed attempts (non-zero exit, timeout), against maxRetriesPerTask. */
    failureCount: integer("failure_count").notNull().default(0),
    /** Attempts lost to infrastructure (worker lost, drained now), on their own budget. */
    interruptionCount: integer("interruption_count").notNull().default(0),
    workerId: text("worker_id"),
    sessionId: text("session_id"),
    progress: real("progress"),
    statusMessage: text("status_message"),
    startedAt: integer("started_at"),
    endedAt: integer("ended_at"),
    /** A READY task after a failed attempt is not dispatched before this time (the retry delay). */
    retryAt: integer("retry_at"),
    /** The worker its last failed attempt ran on: its retry goes to another worker when one is free. */
    lastFailedWorkerId: text("last_failed_worker_id"),
    /**
     * Its task-level requirements not met yet (TASK_DEPENDENCIES): one per all-of edge whose
     * upstream task has not succeeded, one per any-of group none of whose upstream tasks has. A
     * PENDING task is released when it is 0 and its step's gates are open.
     */
    waiting: integer("waiting").notNull().default(0),
  },
  (t) => [
    uniqueIndex("tasks_step_index").on(t.stepId, t.taskIndex),
    index("tasks_dispatch").on(t.stepId, t.status, t.taskIndex),
    index("tasks_job_status").on(t.jobId, t.status),
    // What a step's release makes READY (TaskState.settleJob): only the PENDING tasks that wait
    // on no task, so a step whose tasks wait one by one on others is not walked at every settle.
    index("tasks_releasable")
      .on(t.stepId, t.taskIndex)
      .where(sql`status = 'PENDING' AND waiting = 0`),
  ],
);

/**
 * Task-to-task edges (TASK_DEPENDENCIES), in step-index and task-index terms as job creation
 * resolved them (lib/openjd TaskGraph): task `down_task` of step `down_step` waits for task
 * `up_task` of step `up_step`. `group_no` is -1 for an all-of edge (a requirement by itself),
 * else the any-of group it belongs to (task_groups). `met`: the upstream task has succeeded and
 * this edge was counted off its downstream task's `waiting`. Keyed for the release: a success
 * looks up its task's edges by (job, step index, task index).
 */
export const taskEdges = sqliteTable(
  "task_edges",
  {
    jobId: text("job_id")
      .notNull()
      .references(() => jobs.id, { onDelete: "cascade" }),
    upStep: integer("up_step").notNull(),
    upTask: integer("up_task").notNull(),
    downStep: integer("down_step").notNull(),
    downTask: integer("down_task").notNull(),
    groupNo: integer("group_no").notNull(),
    met: integer("met", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.upStep, t.upTask, t.downStep, t.downTask, t.groupNo] }), index("task_edges_down").on(t.jobId, t.downStep, t.downTask, t.upStep, t.upTask)],
);

/**
 * Any-of groups (TASK_DEPENDENCIES `anyOf` per task): one requirement of its downstream task,
 * met once one of its edges is. `met_count`: its edges met now; the group opens when it goes
 * 0 → 1 and closes again when a requeue takes it back to 0.
 */
export const taskGroups = sqliteTable(
  "task_groups",
  {
    jobId: text("job_id")
      .notNull()
      .references(() => jobs.id, { onDelete: "cascade" }),
    groupNo: integer("group_no").notNull(),
    downStep: integer("down_step").notNull(),
    downTask: integer("down_task").notNull(),
    metCount: integer("met_count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.groupNo] }), index("task_groups_down").on(t.jobId, t.downStep, t.downTask)],
);

/**
 * The per-worker failure rule (Flamenco's job blocklist): failed attempts of a job's tasks per
 * worker; at the job's maxWorkerFailures the worker is kept away from the job (blocked_at) until
 * a wrangler clears it.
 */
export const workerJobFailures = sqliteTable(
  "worker_job_failures",
  {
    jobId: text("job_id")
      .notNull()
      .references(() => jobs.id, { onDelete: "cascade" }),
    workerId: text("worker_id")
      .notNull()
      .references(() => workers.id, { onDelete: "cascade" }),
    failures: integer("failures").notNull().default(0),
    lastFailureAt: integer("last_failure_at").notNull(),
    /** What the last failed attempt said (its status message or fail message). */
    lastMessage: text("last_message"),
    blockedAt: integer("blocked_at"),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.workerId] }), index("worker_job_failures_worker").on(t.workerId, t.blockedAt)],
);

export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    jobId: text("job_id")
      .notNull()
      .references(() => jobs.id, { onDelete: "cascade" }),
    workerId: text("worker_id")
      .notNull()
      .references(() => workers.id),
    /** The worker's lease epoch when the Session was opened. */
    leaseEpoch: integer("lease_epoch").notNull(),
    /** ACTIVE; ENDING once a failure or cancel made it terminal (only exits may run); ENDED. */
    state: text("state").$type<SessionState>().notNull(),
    /** The exits and end have been issued to the worker; ENDED once they have all been reported. */
    endIssued: integer("end_issued", { mode: "boolean" }).notNull().default(false),
    /**
     * Opened ahead of submission order to measure a new step (scheduler/plan.ts probeTarget): it
     * ends after that task when an earlier job of its priority has work, so the worker goes back.
     */
    probe: integer("probe", { mode: "boolean" }).notNull().default(false),
    /** Amounts reserved on the worker for this Session (`{ "amount.worker.vcpu": 4 }`). */
    reserved: text("reserved", { mode: "json" }).$type<Record<string, number>>().notNull(),
    startedAt: integer("started_at").notNull(),
    endedAt: integer("ended_at"),
    /** Characters of log text stored for this Session, against the per-Session log cap. */
    logChars: integer("log_chars").notNull().default(0),
    /** Lines refused past a log cap (one marker line says how many). */
    logDropped: integer("log_dropped").notNull().default(0),
  },
  (t) => [index("sessions_worker").on(t.workerId, t.state), index("sessions_job").on(t.jobId)],
);

export const sessionActions = sqliteTable(
  "session_actions",
  {
    id: text("id").primaryKey(),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    kind: text("kind").$type<ActionKind>().notNull(),
    /** ENV_*: the stack entry id (`job:Name`, `step:Step:Name`, `template:0:Name`). */
    environmentId: text("environment_id"),
    stepId: text("step_id"),
    taskId: integer("task_id"),
    status: text("status").$type<ActionStatus>().notNull(),
    exitCode: integer("exit_code"),
    progress: real("progress"),
    statusMessage: text("status_message"),
    failMessage: text("fail_message"),
    startedAt: integer("started_at"),
    endedAt: integer("ended_at"),
    /** When it was handed to the worker: a worker holding assigned work without starting it loses it. */
    assignedAt: integer("assigned_at"),
    /** Characters of log text stored for this action, against the per-action log cap. */
    logChars: integer("log_chars").notNull().default(0),
  },
  (t) => [
    uniqueIndex("session_actions_seq").on(t.sessionId, t.seq),
    index("session_actions_task").on(t.taskId),
    // Each sync reads a Session's unfinished actions and its environment actions: partial
    // indexes keep that cost flat however many tasks the Session has run.
    index("session_actions_open")
      .on(t.sessionId, t.seq)
      .where(sql`status IN ('ASSIGNED', 'RUNNING')`),
    index("session_actions_env")
      .on(t.sessionId, t.seq)
      .where(sql`environment_id IS NOT NULL`),
  ],
);

export const logLines = sqliteTable(
  "log_lines",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    /** The Session's job, so a job's log view reads its lines by index. */
    jobId: text("job_id"),
    /** Per-Session sequence number the worker assigns: uploads are idempotent by it. */
    seq: integer("seq").notNull(),
    actionId: text("action_id"),
    time: integer("time").notNull(),
    line: text("line").notNull(),
  },
  (t) => [
    uniqueIndex("log_lines_session_seq").on(t.sessionId, t.seq),
    index("log_lines_session_id").on(t.sessionId, t.id),
    index("log_lines_job_id").on(t.jobId, t.id),
    index("log_lines_action").on(t.actionId, t.id),
  ],
);

/**
 * The artists' template library: job and environment templates kept as written (text and
 * format), with the parameter values of the job bundle they came from. Only readable templates
 * are stored (lib/openjd parsed them and knows their kind); validation errors are counted.
 */
export const templates = sqliteTable(
  "templates",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    kind: text("kind").$type<"job" | "environment">().notNull(),
    format: text("format").$type<"yaml" | "json">().notNull(),
    text: text("text").notNull(),
    /** `{Name: value}` from a job bundle's parameter_values file; `{}` otherwise. */
    parameterValues: text("parameter_values", { mode: "json" }).$type<Record<string, unknown>>().notNull(),
    errorCount: integer("error_count").notNull(),
    createdAt: createdAt(),
    updatedAt: integer("updated_at").notNull(),
    /** Who saved it first: artists replace and delete their own; wranglers any. */
    ownerId: text("owner_id"),
  },
  (t) => [uniqueIndex("templates_name").on(t.name), index("templates_updated").on(t.updatedAt)],
);

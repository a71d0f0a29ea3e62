/**
 * The farm's tables for PostgreSQL (drizzle pg-core): the same tables, columns, keys and indexes
 * as schema.ts, which stays the reference (schema-parity.test.ts compares the two). Migrations
 * are generated from this file into drizzle/postgres/ (drizzle.postgres.config.ts).
 *
 * Types follow what the values hold. SQLite keeps every integer in 64 bits, so a column is
 * bigint (read as a number) unless its values are bounded below 2^31: times are epoch
 * milliseconds; so are sums (runtimes, log characters), ids and numbers a busy farm counts past
 * 2^31 (tasks, log lines, audit rows, job numbers), what a worker reports (exit codes, Windows'
 * up to 0xFFFFFFFF; log sequence numbers), counters nothing caps (dropped log lines, failures of
 * a job on a worker, successful runs of a step) and limits that may be "no limit"
 * (max_failed_tasks). The integer columns left, and what bounds each, are listed in
 * schema-parity.test.ts. Flags are booleans; JSON stays text, written and read by drizzle as the
 * SQLite schema does, so both give rows of the same TypeScript types.
 *
 * Only here: tasks_ready, the partial index of READY tasks that claims (FOR UPDATE SKIP LOCKED)
 * walk, listed as PostgreSQL-only in the parity test.
 */
import { sql } from "drizzle-orm";
import { bigint, boolean, customType, doublePrecision, index, integer, pgTable, primaryKey, text, uniqueIndex } from "drizzle-orm/pg-core";
import type { Role, TokenScope } from "../../lib/farm/access";
import type { ActionKind, ActionStatus, DrainMode, SessionState, TaskStatus, WorkerStatus } from "../../lib/farm/statuses";
import type { StoredDependency as ResolvedDependency } from "../../lib/farm/task-dependencies";
import { statusCountColumns } from "./status-counts";

/** Epoch milliseconds as bigint, read back as a JavaScript number. */
const epochMs = (name: string) => bigint(name, { mode: "number" });
/** An integer SQLite may hold past 2^31 (a count, an id, a worker's number) as bigint, read back as a JavaScript number. */
const wide = (name: string) => bigint(name, { mode: "number" });

/** JSON kept as text, as SQLite's `text(name, { mode: "json" })`. */
function jsonText<T = unknown>(name: string) {
  return customType<{ data: T; driverData: string }>({
    dataType: () => "text",
    toDriver: (value) => JSON.stringify(value),
    fromDriver: (value) => JSON.parse(value) as T,
  })(name);
}

const createdAt = () => epochMs("created_at").notNull();

export const pools = pgTable("pools", {
  id: text("id").primaryKey(),
  name: text("name").notNull().unique(),
  description: text("description").notNull().default(""),
  tokenHash: text("token_hash").notNull(),
  enabled: boolean("enabled").notNull().default(true),
  createdAt: createdAt(),
  tokenRotatedAt: epochMs("token_rotated_at"),
  tokenGeneration: integer("token_generation").notNull().default(1),
  previousTokenHash: text("previous_token_hash"),
  previousTokenExpiresAt: epochMs("previous_token_expires_at"),
});

export const workers = pgTable(
  "workers",
  {
    id: text("id").primaryKey(),
    poolId: text("pool_id")
      .notNull()
      .references(() => pools.id),
    name: text("name").notNull(),
    instanceId: text("instance_id"),
    status: text("status").$type<WorkerStatus>().notNull(),
    capabilities: jsonText("capabilities").notNull(),
    leaseEpoch: integer("lease_epoch").notNull().default(1),
    lastHeartbeatAt: epochMs("last_heartbeat_at").notNull(),
    drain: text("drain").$type<DrainMode>(),
    disabled: boolean("disabled").notNull().default(false),
    registeredAt: epochMs("registered_at").notNull(),
    credentialHash: text("credential_hash"),
    tokenGeneration: integer("token_generation").notNull().default(1),
    removedAt: epochMs("removed_at"),
  },
  (t) => [index("workers_pool").on(t.poolId), index("workers_status").on(t.status), uniqueIndex("workers_credential").on(t.credentialHash)],
);

export const users = pgTable("users", {
  id: text("id").primaryKey(),
  name: text("name").notNull().unique(),
  role: text("role").$type<Role>().notNull().default("artist"),
  createdAt: createdAt(),
  kind: text("kind").$type<"person" | "service">().notNull().default("person"),
  passwordHash: text("password_hash"),
  disabled: boolean("disabled").notNull().default(false),
  updatedAt: epochMs("updated_at").notNull().default(0),
});

export const authSessions = pgTable(
  "auth_sessions",
  {
    id: text("id").primaryKey(),
    tokenHash: text("token_hash").notNull().unique(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    lastSeenAt: epochMs("last_seen_at").notNull(),
    expiresAt: epochMs("expires_at").notNull(),
    revokedAt: epochMs("revoked_at"),
    address: text("address"),
    userAgent: text("user_agent"),
  },
  (t) => [index("auth_sessions_user").on(t.userId)],
);

export const accessTokens = pgTable(
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
    expiresAt: epochMs("expires_at"),
    lastUsedAt: epochMs("last_used_at"),
    lastUsedAddress: text("last_used_address"),
    revokedAt: epochMs("revoked_at"),
  },
  (t) => [index("access_tokens_user").on(t.userId)],
);

export const auditLog = pgTable(
  "audit_log",
  {
    id: wide("id").primaryKey().generatedByDefaultAsIdentity(),
    time: epochMs("time").notNull(),
    actorKind: text("actor_kind").notNull(),
    actorId: text("actor_id"),
    actorName: text("actor_name").notNull(),
    via: text("via"),
    action: text("action").notNull(),
    targetKind: text("target_kind"),
    targetId: text("target_id"),
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

export const serverState = pgTable("server_state", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
  updatedAt: epochMs("updated_at").notNull(),
});

export const jobs = pgTable(
  "jobs",
  {
    id: text("id").primaryKey(),
    seq: wide("seq").notNull().unique(),
    name: text("name").notNull(),
    description: text("description"),
    submitter: text("submitter").notNull().default("anonymous"),
    ownerId: text("owner_id"),
    templateText: text("template_text").notNull(),
    templateFormat: text("template_format").$type<"yaml" | "json">().notNull(),
    environmentTemplates: jsonText<Array<{ text: string; format: "yaml" | "json" }>>("environment_templates").notNull(),
    parameters: jsonText<Record<string, { type: string; value: string }>>("parameters").notNull(),
    priority: integer("priority").notNull(),
    suspended: boolean("suspended").notNull().default(false),
    canceled: boolean("canceled").notNull().default(false),
    status: text("status").$type<TaskStatus>().notNull(),
    ...statusCountColumns((name) => integer(name).notNull().default(0)),
    taskCount: integer("task_count").notNull(),
    maxRetriesPerTask: integer("max_retries_per_task").notNull(),
    maxFailedTasks: wide("max_failed_tasks").notNull(),
    failedTaskCount: integer("failed_task_count").notNull().default(0),
    retryDelaySeconds: integer("retry_delay_seconds").notNull().default(5),
    maxWorkerFailures: integer("max_worker_failures").notNull().default(3),
    submittedAt: epochMs("submitted_at").notNull(),
    startedAt: epochMs("started_at"),
    endedAt: epochMs("ended_at"),
  },
  (t) => [index("jobs_dispatch").on(t.status, t.priority, t.seq), index("jobs_submitted").on(t.submittedAt), index("jobs_owner").on(t.ownerId)],
);

/** Job numbers from the identity's sequence: `INSERT INTO job_numbers DEFAULT VALUES RETURNING number`, as on SQLite. */
export const jobNumbers = pgTable("job_numbers", {
  number: wide("number").primaryKey().generatedByDefaultAsIdentity(),
});

export const requests = pgTable("requests", {
  id: text("id").primaryKey(),
  jobId: text("job_id").references(() => jobs.id),
  userId: text("user_id").references(() => users.id),
  priority: integer("priority").notNull(),
  createdAt: createdAt(),
});

export const steps = pgTable(
  "steps",
  {
    id: text("id").primaryKey(),
    jobId: text("job_id")
      .notNull()
      .references(() => jobs.id, { onDelete: "cascade" }),
    stepIndex: integer("step_index").notNull(),
    name: text("name").notNull(),
    dependencies: jsonText<string[]>("dependencies").notNull(),
    resolvedDependencies: jsonText<ResolvedDependency[]>("resolved_dependencies"),
    hostRequirements: jsonText("host_requirements"),
    environmentStack: text("environment_stack").notNull(),
    chunked: boolean("chunked").notNull().default(false),
    status: text("status").$type<TaskStatus>().notNull(),
    ...statusCountColumns((name) => integer(name).notNull().default(0)),
    taskCount: integer("task_count").notNull(),
    incompatibleReason: text("incompatible_reason"),
    runtimeTotalMs: epochMs("runtime_total_ms").notNull().default(0),
    runtimeCount: wide("runtime_count").notNull().default(0),
  },
  (t) => [uniqueIndex("steps_job_index").on(t.jobId, t.stepIndex), uniqueIndex("steps_job_name").on(t.jobId, t.name)],
);

export const tasks = pgTable(
  "tasks",
  {
    id: wide("id").primaryKey().generatedByDefaultAsIdentity(),
    jobId: text("job_id")
      .notNull()
      .references(() => jobs.id, { onDelete: "cascade" }),
    stepId: text("step_id")
      .notNull()
      .references(() => steps.id, { onDelete: "cascade" }),
    taskIndex: integer("task_index").notNull(),
    parameters: text("parameters").notNull(),
    status: text("status").$type<TaskStatus>().notNull(),
    failureCount: integer("failure_count").notNull().default(0),
    interruptionCount: integer("interruption_count").notNull().default(0),
    workerId: text("worker_id"),
    sessionId: text("session_id"),
    progress: doublePrecision("progress"),
    statusMessage: text("status_message"),
    startedAt: epochMs("started_at"),
    endedAt: epochMs("ended_at"),
    retryAt: epochMs("retry_at"),
    lastFailedWorkerId: text("last_failed_worker_id"),
    waiting: integer("waiting").notNull().default(0),
  },
  (t) => [
    uniqueIndex("tasks_step_index").on(t.stepId, t.taskIndex),
    index("tasks_dispatch").on(t.stepId, t.status, t.taskIndex),
    index("tasks_job_status").on(t.jobId, t.status),
    index("tasks_releasable")
      .on(t.stepId, t.taskIndex)
      .where(sql`status = 'PENDING' AND waiting = 0`),
    // PostgreSQL only: claims take READY tasks of a step in order, skipping locked rows; the
    // index holds only the READY ones, so it stays small however many tasks have run.
    index("tasks_ready")
      .on(t.stepId, t.taskIndex)
      .where(sql`status = 'READY'`),
  ],
);

export const taskEdges = pgTable(
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
    met: boolean("met").notNull().default(false),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.upStep, t.upTask, t.downStep, t.downTask, t.groupNo] }), index("task_edges_down").on(t.jobId, t.downStep, t.downTask, t.upStep, t.upTask)],
);

export const taskGroups = pgTable(
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

export const workerJobFailures = pgTable(
  "worker_job_failures",
  {
    jobId: text("job_id")
      .notNull()
      .references(() => jobs.id, { onDelete: "cascade" }),
    workerId: text("worker_id")
      .notNull()
      .references(() => workers.id, { onDelete: "cascade" }),
    failures: wide("failures").notNull().default(0),
    lastFailureAt: epochMs("last_failure_at").notNull(),
    lastMessage: text("last_message"),
    blockedAt: epochMs("blocked_at"),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.workerId] }), index("worker_job_failures_worker").on(t.workerId, t.blockedAt)],
);

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    jobId: text("job_id")
      .notNull()
      .references(() => jobs.id, { onDelete: "cascade" }),
    workerId: text("worker_id")
      .notNull()
      .references(() => workers.id),
    leaseEpoch: integer("lease_epoch").notNull(),
    state: text("state").$type<SessionState>().notNull(),
    endIssued: boolean("end_issued").notNull().default(false),
    probe: boolean("probe").notNull().default(false),
    reserved: jsonText<Record<string, number>>("reserved").notNull(),
    startedAt: epochMs("started_at").notNull(),
    endedAt: epochMs("ended_at"),
    logChars: wide("log_chars").notNull().default(0),
    logDropped: wide("log_dropped").notNull().default(0),
  },
  (t) => [index("sessions_worker").on(t.workerId, t.state), index("sessions_job").on(t.jobId)],
);

export const sessionActions = pgTable(
  "session_actions",
  {
    id: text("id").primaryKey(),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    kind: text("kind").$type<ActionKind>().notNull(),
    environmentId: text("environment_id"),
    stepId: text("step_id"),
    taskId: wide("task_id"),
    status: text("status").$type<ActionStatus>().notNull(),
    exitCode: wide("exit_code"),
    progress: doublePrecision("progress"),
    statusMessage: text("status_message"),
    failMessage: text("fail_message"),
    startedAt: epochMs("started_at"),
    endedAt: epochMs("ended_at"),
    assignedAt: epochMs("assigned_at"),
    logChars: wide("log_chars").notNull().default(0),
  },
  (t) => [
    uniqueIndex("session_actions_seq").on(t.sessionId, t.seq),
    index("session_actions_task").on(t.taskId),
    index("session_actions_open")
      .on(t.sessionId, t.seq)
      .where(sql`status IN ('ASSIGNED', 'RUNNING')`),
    index("session_actions_env")
      .on(t.sessionId, t.seq)
      .where(sql`environment_id IS NOT NULL`),
  ],
);

export const logLines = pgTable(
  "log_lines",
  {
    id: wide("id").primaryKey().generatedByDefaultAsIdentity(),
    sessionId: text("session_id")
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    jobId: text("job_id"),
    seq: wide("seq").notNull(),
    actionId: text("action_id"),
    time: epochMs("time").notNull(),
    line: text("line").notNull(),
  },
  (t) => [
    uniqueIndex("log_lines_session_seq").on(t.sessionId, t.seq),
    index("log_lines_session_id").on(t.sessionId, t.id),
    index("log_lines_job_id").on(t.jobId, t.id),
    index("log_lines_action").on(t.actionId, t.id),
  ],
);

export const templates = pgTable(
  "templates",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    kind: text("kind").$type<"job" | "environment">().notNull(),
    format: text("format").$type<"yaml" | "json">().notNull(),
    text: text("text").notNull(),
    parameterValues: jsonText<Record<string, unknown>>("parameter_values").notNull(),
    errorCount: integer("error_count").notNull(),
    createdAt: createdAt(),
    updatedAt: epochMs("updated_at").notNull(),
    ownerId: text("owner_id"),
  },
  (t) => [uniqueIndex("templates_name").on(t.name), index("templates_updated").on(t.updatedAt)],
);

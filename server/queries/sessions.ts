/**
 * Sessions and their logs as the portal and `loom job logs` read them: a job's Sessions with
 * their actions in order (the timeline), and log lines by id so a live view can resume after
 * the last line it has.
 */
import { z } from "zod";
import type { ActionKind, ActionStatus, SessionState } from "../../lib/farm/statuses";
import { AppError } from "../context/errors";
import type { Farm } from "../context/farm";
import { logLinesRepository } from "../store/log-lines";
import type { ReadTx } from "../store/repository";
import { sessionQueriesRepository, type ActionRow } from "../store/session-queries";

export interface ActionView {
  id: string;
  seq: number;
  kind: ActionKind;
  environmentId: string | null;
  stepId: string | null;
  taskId: number | null;
  status: ActionStatus;
  exitCode: number | null;
  progress: number | null;
  statusMessage: string | null;
  failMessage: string | null;
  startedAt: number | null;
  endedAt: number | null;
}

export interface SessionView {
  id: string;
  jobId: string;
  workerId: string;
  state: SessionState;
  startedAt: number;
  endedAt: number | null;
  actions: ActionView[];
}

function toActionView(a: ActionRow): ActionView {
  return {
    id: a.id,
    seq: a.seq,
    kind: a.kind,
    environmentId: a.environment_id,
    stepId: a.step_id,
    taskId: a.task_id,
    status: a.status,
    exitCode: a.exit_code,
    progress: a.progress,
    statusMessage: a.status_message,
    failMessage: a.fail_message,
    startedAt: a.started_at,
    endedAt: a.ended_at,
  };
}

export const listSessionsInput = z.object({ jobId: z.string().min(1), taskId: z.number().int().optional() });

/** A job's Sessions (or those that ran one of its tasks) with their actions, from one snapshot. */
export async function listSessions(farm: Farm, raw: z.input<typeof listSessionsInput>): Promise<SessionView[]> {
  const input = listSessionsInput.parse(raw);
  return farm.store.read(
    async (tx) => {
      const views: SessionView[] = [];
      for (const s of await sessionQueriesRepository.ofJob(tx, input.jobId, input.taskId)) {
        const actions = await sessionQueriesRepository.actions(tx, s.id);
        views.push({ id: s.id, jobId: s.job_id, workerId: s.worker_id, state: s.state, startedAt: s.started_at, endedAt: s.ended_at, actions: actions.map(toActionView) });
      }
      return views;
    },
    { consistent: true },
  );
}

export interface LogLineView {
  id: number;
  sessionId: string;
  actionId: string | null;
  time: number;
  line: string;
}

export const logLinesInput = z.object({
  sessionId: z.string().min(1).optional(),
  jobId: z.string().min(1).optional(),
  actionId: z.string().min(1).optional(),
  /** Lines with a larger id than this (a live view resumes from its last line). */
  afterId: z.number().int().nonnegative().default(0),
  limit: z.number().int().min(1).max(10_000).default(1000),
});

/** Log lines in the order they were stored, of one Session, one action, or every Session of a job. */
export async function logLines(farm: Farm, raw: z.input<typeof logLinesInput>): Promise<LogLineView[]> {
  const input = logLinesInput.parse(raw);
  const read = (tx: ReadTx) => sessionQueriesRepository.logLines(tx, input, input.afterId, input.limit);
  // A whole job's lines after an id, on PostgreSQL: read once the job's uploads in flight have
  // committed, so none of them can commit a line below the last id returned (log-lines.ts).
  const acrossSessions = input.jobId !== undefined && input.sessionId === undefined && input.actionId === undefined;
  const rows =
    acrossSessions && farm.store.engine === "postgres"
      ? await farm.store.transaction(async (tx) => {
          await logLinesRepository.holdJobUploads(tx, input.jobId!);
          return read(tx);
        })
      : await farm.store.read(read);
  return rows.map((r) => ({ id: r.id, sessionId: r.session_id, actionId: r.action_id, time: r.time, line: r.line }));
}

/** A timeline row: the action with what names it (its step, its task's parameters). */
export interface ActionDetail extends ActionView {
  stepName: string | null;
  taskIndex: number | null;
  taskParameters: Record<string, { type: string; value: string }> | null;
}

/** One Session as its page shows it: who ran it, of which job, every action in order. */
export interface SessionDetail extends Omit<SessionView, "actions"> {
  workerName: string;
  jobName: string;
  actions: ActionDetail[];
}

/** One Session with its actions; NOT_FOUND when there is no such Session (or it is another job's). */
export async function getSession(farm: Farm, sessionId: string, jobId?: string): Promise<SessionDetail> {
  const { s, actions } = await farm.store.read(
    async (tx) => {
      const s = await sessionQueriesRepository.detail(tx, sessionId);
      if (!s || (jobId !== undefined && s.job_id !== jobId)) throw new AppError("NOT_FOUND", `no Session ${sessionId}${jobId ? ` in job ${jobId}` : ""}`);
      return { s, actions: await sessionQueriesRepository.detailActions(tx, sessionId) };
    },
    { consistent: true },
  );
  return {
    id: s.id,
    jobId: s.job_id,
    jobName: s.job_name ?? s.job_id,
    workerId: s.worker_id,
    workerName: s.worker_name ?? s.worker_id,
    state: s.state,
    startedAt: s.started_at,
    endedAt: s.ended_at,
    actions: actions.map((a) => ({
      ...toActionView(a),
      stepName: a.step_name,
      taskIndex: a.task_index,
      taskParameters: a.task_parameters === null ? null : (JSON.parse(a.task_parameters) as ActionDetail["taskParameters"]),
    })),
  };
}

/**
 * The Session timeline, pure: where each action's bar sits on a shared time axis (running
 * actions end at `now`, so they grow as the clock moves), axis ticks at round intervals, how an
 * action is named, and a task's attempts across Sessions.
 */

export interface TimedAction {
  id: string;
  startedAt: number | null;
  endedAt: number | null;
}

export interface Bar {
  /** Percent of the axis from its start. */
  left: number;
  width: number;
  running: boolean;
}

export interface Axis {
  from: number;
  to: number;
}

/** Bars stay visible however short the action: at least this share of the axis. */
export const MIN_BAR_PERCENT = 0.4;

/** The axis runs from the Session's start (or its first action's) to the last end, or `now` while anything runs. */
export function timelineAxis(sessionStart: number, actions: readonly TimedAction[], now: number): Axis {
  let from = sessionStart;
  let to = sessionStart;
  for (const a of actions) {
    if (a.startedAt === null) continue;
    from = Math.min(from, a.startedAt);
    to = Math.max(to, a.endedAt ?? now);
  }
  return { from, to: Math.max(to, from + 1) };
}

/** An action's bar, or null when it has not started. */
export function barOf(action: TimedAction, axis: Axis, now: number): Bar | null {
  if (action.startedAt === null) return null;
  const span = axis.to - axis.from;
  const end = Math.min(action.endedAt ?? now, axis.to);
  const left = clamp(((action.startedAt - axis.from) / span) * 100, 0, 100 - MIN_BAR_PERCENT);
  const width = Math.max(MIN_BAR_PERCENT, Math.min(100 - left, ((end - action.startedAt) / span) * 100));
  return { left, width, running: action.endedAt === null };
}

const TICK_STEPS_MS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14_400, 28_800, 86_400].map((s) => s * 1000);

/** Ticks at the smallest round step giving at most `max` of them: offsets from the axis start in ms. */
export function axisTicks(axis: Axis, max = 6): number[] {
  const span = axis.to - axis.from;
  const step = TICK_STEPS_MS.find((s) => span / s <= max) ?? Math.ceil(span / max);
  const ticks: number[] = [];
  for (let t = 0; t <= span; t += step) ticks.push(t);
  return ticks;
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

export interface NamedAction {
  kind: "ENV_ENTER" | "TASK_RUN" | "ENV_EXIT";
  environmentId: string | null;
  stepName: string | null;
  taskParameters: Record<string, { value: string }> | null;
}

/** `Enter Tools`, `Render · Frame=3`, `Exit Tools`: an environment by its name (the stack id's last part). */
export function actionLabel(action: NamedAction): string {
  const environment = action.environmentId?.split(":").at(-1) ?? "environment";
  switch (action.kind) {
    case "ENV_ENTER":
      return `Enter ${environment}`;
    case "ENV_EXIT":
      return `Exit ${environment}`;
    case "TASK_RUN": {
      const params = Object.entries(action.taskParameters ?? {}).map(([name, p]) => `${name}=${p.value}`);
      return [action.stepName ?? "Task", params.join(" ")].filter(Boolean).join(" · ");
    }
  }
}

export interface Attempt<S extends string = string> {
  number: number;
  sessionId: string;
  actionId: string;
  workerId: string;
  status: S;
  startedAt: number | null;
}

/** A task's runs across its Sessions (jobs.sessions with taskId: Sessions by start, actions by seq), numbered from 1. */
export function taskAttempts<S extends string>(
  sessions: ReadonlyArray<{ id: string; workerId: string; actions: ReadonlyArray<{ id: string; kind: string; taskId: number | null; status: S; startedAt: number | null }> }>,
  taskId: number,
): Attempt<S>[] {
  return sessions
    .flatMap((s) =>
      s.actions.filter((a) => a.kind === "TASK_RUN" && a.taskId === taskId).map((a) => ({ sessionId: s.id, actionId: a.id, workerId: s.workerId, status: a.status, startedAt: a.startedAt })),
    )
    .map((run, i) => ({ number: i + 1, ...run }));
}

/**
 * An action's `openjd_progress` and `openjd_status`, read from its log lines as they arrive (the
 * session runtime logs the message line as printed, then reports the value with the next sync):
 * the page shows the newest of either, so progress moves as soon as the line is seen.
 */
import { parseOutputLine } from "@/lib/openjd";
import type { LogLine } from "./line-store";

export interface ActionReport {
  /** 0–100, or null when none was reported. */
  progress: number | null;
  status: string | null;
}

/**
 * What one line reports, if anything, read with the runtime's own parser (a value the runtime
 * refused was logged with an error annotation appended, so it is refused here too).
 */
export function reportOf(line: string): Partial<ActionReport> | null {
  if (!line.startsWith("openjd_")) return null; // most lines: no parse at all
  const message = parseOutputLine(line, { inEnvironmentAction: false }).message;
  if (message?.kind === "progress") return { progress: message.value };
  if (message?.kind === "status") return { status: message.message };
  return null;
}

/**
 * The reports per action after `lines`; returns the same map when no line reports anything
 * (so a React state holding it does not change for plain output).
 */
export function foldReports(reports: ReadonlyMap<string, ActionReport>, lines: readonly LogLine[]): ReadonlyMap<string, ActionReport> {
  let next: Map<string, ActionReport> | null = null;
  for (const { actionId, line } of lines) {
    if (actionId === null) continue;
    const found = reportOf(line);
    if (!found) continue;
    next ??= new Map(reports);
    next.set(actionId, { ...(next.get(actionId) ?? { progress: null, status: null }), ...found });
  }
  return next ?? reports;
}

/** What to show for an action: its log's newest report, else what the worker synced. */
export function shownReport(synced: { progress: number | null; statusMessage: string | null }, fromLog: ActionReport | undefined): ActionReport {
  return { progress: fromLog?.progress ?? synced.progress, status: fromLog?.status ?? synced.statusMessage };
}

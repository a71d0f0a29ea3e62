/**
 * The whole log as text, read page by page from the server (logs.lines) rather than from what
 * the viewer holds: a view opened late, or filtered, still downloads every line.
 */
import type { LogLine } from "./line-store";

export const DOWNLOAD_PAGE = 10_000;

/** Reads pages after the last id until a short page; `onProgress` gets the count so far. */
export async function readWholeLog(page: (afterId: number, limit: number) => Promise<readonly LogLine[]>, onProgress?: (lines: number) => void, limit = DOWNLOAD_PAGE): Promise<LogLine[]> {
  const all: LogLine[] = [];
  let after = 0;
  for (;;) {
    const lines = await page(after, limit);
    all.push(...lines);
    onProgress?.(all.length);
    if (lines.length < limit) return all;
    after = lines[lines.length - 1]!.id;
  }
}

/** One line per log line: UTC timestamp, then the text as stored (already redacted by the worker). */
export function logText(lines: readonly LogLine[]): string {
  return lines.map((l) => `${new Date(l.time).toISOString()} ${l.line}\n`).join("");
}

/** `session-<id>[-action-<id>].log.txt`, or the job's, with only file-name-safe characters. */
export function logFileName(view: { sessionId?: string; jobId?: string; actionId?: string }): string {
  const parts = [view.sessionId ? `session-${view.sessionId}` : view.jobId ? `job-${view.jobId}` : "log", view.actionId ? `action-${view.actionId}` : null];
  return `${parts
    .filter(Boolean)
    .join("-")
    .replace(/[^A-Za-z0-9._-]/g, "_")}.log.txt`;
}

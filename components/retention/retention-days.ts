/**
 * The retention page's number of days as typed, and what a purge did, in words. The server
 * checks the days again (server/services/purge-jobs.ts: a whole number from 0 to 36,500). Pure.
 */
export const MAX_DAYS = 36_500;

export function readDays(text: string): { days: number | null; problem: string | null } {
  const trimmed = text.trim();
  if (trimmed === "") return { days: null, problem: null };
  if (!/^\d+$/.test(trimmed) || Number(trimmed) > MAX_DAYS) return { days: null, problem: `A whole number of days from 0 to ${MAX_DAYS.toLocaleString("en")}.` };
  return { days: Number(trimmed), problem: null };
}

const plural = (n: number, word: string) => `${n.toLocaleString("en")} ${word}${n === 1 ? "" : "s"}`;

/** "3 jobs, 120 tasks, 5,000 log lines". */
export function sizeText(counts: { jobs: number; tasks: number; logLines: number }): string {
  return `${plural(counts.jobs, "job")}, ${plural(counts.tasks, "task")}, ${plural(counts.logLines, "log line")}`;
}

export function purgeText(result: { mode: "archive" | "delete"; jobs: number; tasks: number; logLines: number; files: string[] }): string {
  if (result.jobs === 0) return "Nothing to remove: no finished job is that old.";
  const done = result.mode === "archive" ? "Archived and removed" : "Deleted";
  const where = result.mode === "archive" && result.files.length > 0 ? ` The archives are in the data folder, under ${commonFolder(result.files)}.` : "";
  return `${done} ${sizeText(result)}.${where}`;
}

/** The folder every archive file is in (their longest common folder). */
function commonFolder(files: string[]): string {
  const parts = files.map((f) => f.split("/").slice(0, -1));
  const first = parts[0] ?? [];
  let n = first.length;
  for (const p of parts) {
    let i = 0;
    while (i < n && p[i] === first[i]) i++;
    n = i;
  }
  return n === 0 ? "its top folder" : `${first.slice(0, n).join("/")}/`;
}

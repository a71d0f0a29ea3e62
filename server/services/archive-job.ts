/**
 * A job written out before retention deletes it: `<dataDir>/archive/<job id>.jsonl.gz` (folder
 * 0700, file 0600), gzipped JSON Lines. The first line says what the file is; then the job's row,
 * its steps, tasks, Sessions, Session actions and log lines, one `{ "kind", "row" }` per line,
 * each row as the database holds it (column names, JSON columns as their text). Rows are read in
 * chunks, a read unit each, with a turn of the event loop between them; the file appears under
 * its name only once complete and flushed to disk, so an archive is either whole or absent.
 */
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { chmod, mkdir, open, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { createGzip } from "node:zlib";
import { ARCHIVE_PAGE, archiveRepository } from "../store/archive";
import type { ReadTx } from "../store/repository";
import type { Farm } from "../context/farm";
import { yieldToEventLoop } from "./in-slices";
import { taskIdBounds } from "./task-target";

export const ARCHIVE_FORMAT = "loom-job-archive/1";

export type ArchiveKind = "job" | "step" | "task" | "session" | "action" | "log";

export interface ArchivedJob {
  /** Relative to the data folder. */
  file: string;
  rows: Record<ArchiveKind, number>;
}

export async function archiveJob(farm: Farm, jobId: string, dataDir: string): Promise<ArchivedJob> {
  const read = <T>(fn: (tx: ReadTx) => Promise<T>) => farm.store.read(fn);
  const folder = join(dataDir, "archive");
  await mkdir(folder, { recursive: true, mode: 0o700 });
  await chmod(folder, 0o700);
  const name = `${jobId}.jsonl.gz`;
  const partial = join(folder, `.${name}.partial`);
  const out = createWriteStream(partial, { mode: 0o600 });
  const gzip = createGzip();
  gzip.pipe(out);
  const rows: Record<ArchiveKind, number> = { job: 0, step: 0, task: 0, session: 0, action: 0, log: 0 };
  const write = async (kind: ArchiveKind | "archive", list: readonly unknown[]) => {
    if (list.length === 0) return;
    if (kind !== "archive") rows[kind] += list.length;
    const text = list.map((row) => `${JSON.stringify(kind === "archive" ? row : { kind, row })}\n`).join("");
    if (!gzip.write(text)) await once(gzip, "drain");
    await yieldToEventLoop();
  };
  try {
    await write("archive", [{ kind: "archive", format: ARCHIVE_FORMAT, jobId, archivedAt: farm.now() }]);
    await write("job", await read((tx) => archiveRepository.job(tx, jobId)));
    await write("step", await read((tx) => archiveRepository.steps(tx, jobId)));
    const bounds = await read((tx) => taskIdBounds(tx, farm, jobId));
    for (let low = bounds?.low ?? 1; bounds && low <= bounds.high; low += ARCHIVE_PAGE) {
      const high = low + ARCHIVE_PAGE - 1;
      await write("task", await read((tx) => archiveRepository.tasks(tx, jobId, low, high)));
    }
    const sessions = await read((tx) => archiveRepository.sessions(tx, jobId));
    await write("session", sessions);
    for (const session of sessions) {
      // Keyset pages: each query starts where the last one ended.
      const actionsAfter = (after: number) => read((tx) => archiveRepository.actionsAfter(tx, session.id, after));
      for (let after = -1, page = await actionsAfter(after); page.length > 0; page = await actionsAfter(after)) {
        await write("action", page);
        after = page.at(-1)!.seq;
      }
      const logLinesAfter = (after: number) => read((tx) => archiveRepository.logLinesAfter(tx, session.id, after));
      for (let after = 0, page = await logLinesAfter(after); page.length > 0; page = await logLinesAfter(after)) {
        await write("log", page);
        after = page.at(-1)!.id;
      }
    }
    gzip.end();
    await once(out, "close");
    const handle = await open(partial, "r+");
    await handle.sync();
    await handle.close();
    await chmod(partial, 0o600);
    await rename(partial, join(folder, name));
  } catch (error) {
    gzip.destroy();
    out.destroy();
    await rm(partial, { force: true });
    throw error;
  }
  return { file: join("archive", name), rows };
}

/**
 * Helpers for the task shield tests: whether this host can run the shield at all (tested once
 * per file; the tests skip, saying why, where user namespaces do not work), a folder laid out
 * like `loom serve`'s data folder with a worker's Session root inside it, and a look at the
 * host's processes from outside any namespace.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { onTestFinished } from "vitest";
import { TaskShield, type TaskShieldOptions } from "./task-shield";

/** Why the shield cannot run on this host, or null when it can. */
export async function shieldProblem(): Promise<string | null> {
  const root = mkdtempSync(join(tmpdir(), "loom-shield-probe-"));
  try {
    const shield = TaskShield.create({ hidden: [], sessionRoot: realpathSync(root) });
    if (!(shield instanceof TaskShield)) return shield.unavailable;
    return await shield.probe();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The skip notice, in the test name and on the console, so a skipped run says what it did not check. */
export function skipNotice(problem: string | null): string {
  if (problem === null) return "";
  const notice = ` (SKIPPED: the task shield does not work on this host: ${problem})`;
  console.warn(`loom: task shield tests${notice}`);
  return notice;
}

export const SECRETS = {
  pool: "loom_enr_pool-secret-0123456789",
  admin: "loom_pat_admin-secret-0123456789",
  database: "SQLite format 3 secret-rows",
  login: '{"servers":{"x":{"token":"loom_pat_login-secret"}}}',
} as const;

export interface DataFolder {
  data: string;
  /** data/sessions/w1: the worker's Session root. */
  sessionRoot: string;
  /** data/sessions/w2: another worker's. */
  otherRoot: string;
  poolToken: string;
  adminToken: string;
  database: string;
  /** A `loom login` folder outside the data folder. */
  configDir: string;
}

/** A temp folder like `loom serve`'s data folder, removed when the test ends. */
export function dataFolder(): DataFolder {
  const top = realpathSync(mkdtempSync(join(tmpdir(), "loom-shield-test-")));
  onTestFinished(() => rmSync(top, { recursive: true, force: true }));
  const data = join(top, "data");
  const sessionRoot = join(data, "sessions", "w1");
  const otherRoot = join(data, "sessions", "w2");
  const configDir = join(top, "config", "loom");
  for (const dir of [sessionRoot, otherRoot, configDir]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(otherRoot, "other-job-file"), "another worker's Session");
  const folder = { data, sessionRoot, otherRoot, poolToken: join(data, "local-pool.token"), adminToken: join(data, "local-admin.token"), database: join(data, "loom.db"), configDir };
  writeFileSync(folder.poolToken, SECRETS.pool, { mode: 0o600 });
  writeFileSync(folder.adminToken, SECRETS.admin, { mode: 0o600 });
  writeFileSync(folder.database, SECRETS.database, { mode: 0o600 });
  writeFileSync(`${folder.database}-wal`, SECRETS.database, { mode: 0o600 });
  writeFileSync(join(configDir, "credentials.json"), SECRETS.login, { mode: 0o600 });
  return folder;
}

/** A shield for the data folder's worker (hiding what `loom serve` and `loom worker` hide). */
export function shieldFor(folder: DataFolder, extra: Partial<TaskShieldOptions> = {}): TaskShield {
  const shield = TaskShield.create({ hidden: [folder.poolToken, folder.data, folder.configDir], sessionRoot: folder.sessionRoot, ...extra });
  if (!(shield instanceof TaskShield)) throw new Error(`no task shield: ${shield.unavailable}`);
  return shield;
}

/** Host pids (seen from outside every namespace) whose command line holds `marker`. */
export function processesWithArgument(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(marker)) found.push(Number(entry));
    } catch {
      // gone
    }
  }
  return found;
}

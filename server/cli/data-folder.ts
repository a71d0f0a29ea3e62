/**
 * `loom serve`'s first steps on its data folder, before any server listens:
 *
 * - the folder is the server's alone: 0700, the database files 0600 (they hold every job and
 *   every credential's hash), created that way and corrected on each start;
 * - a read-only or full disk is one line saying so, not a stack trace;
 * - the local pool exists (made with `local-pool.token`, or LOOM_POOL_TOKEN, on the first start;
 *   never reset afterwards, so a rotation or revocation from the portal stays);
 * - the token files are 0600 too;
 * - the local admin's token file (server/auth/first-start.ts) and, while nobody has an account,
 *   the one-time setup address;
 * - the local workers the previous `loom serve` started, if it ended without stopping them
 *   cleanly, are released: their tasks go back to the queue and the new agents enroll at once
 *   (server/services/local-workers.ts).
 */
import { accessSync, chmodSync, constants, existsSync, mkdirSync, readFileSync, rmSync, statfsSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { ensureLocalAdmin, LOCAL_ADMIN_TOKEN_FILE, openSetup, type LocalAdminState } from "../auth/first-start";
import { newSecret } from "../auth/secrets";
import { databaseFile, openStore, type SqliteStore, type Store } from "../db/connection";
import { openAsyncStore } from "../store/engine/open-store";
import type { ServerEnv } from "../env";
import { SYSTEM_ACTOR } from "../services/audit";
import { createFarm } from "../context/farm";
import { settingsFromEnv } from "../context/farm-settings";
import { releaseLocalWorkers } from "../services/local-workers";
import { ensurePool, LOCAL_POOL_TOKEN_FILE } from "../services/pools";
import { processExists } from "../parent-watch";
import { LOCAL_WORKERS_FILE, readLocalWorkers } from "./local-workers-file";

export { LOCAL_POOL_TOKEN_FILE };

/** A start-up failure said in one line (the caller prints it and exits 1). */
export class StartupError extends Error {}

const WHY: Record<string, string> = {
  EROFS: "is on a read-only file system",
  EACCES: "is not writable by this user",
  EPERM: "is not writable by this user",
  ENOSPC: "is on a full disk",
  EDQUOT: "is over its disk quota",
  SQLITE_FULL: "is on a full disk",
  SQLITE_READONLY: "is read-only",
  SQLITE_CANTOPEN: "cannot be opened (read-only, or not writable by this user)",
  SQLITE_IOERR_WRITE: "cannot be written (disk error or full disk)",
};

/** Below this much free space a start is refused: the database could not take a day's logs. */
const MIN_FREE_BYTES = 1024 * 1024;
/** A failure with this little free space is the full disk's doing, whatever error SQLite gave. */
const FULL_BELOW_BYTES = 8 * 1024 * 1024;

/** Free bytes for this user on the disk holding `dir` (null when that cannot be told). */
function freeBytes(dir: string): number | null {
  try {
    const fs = statfsSync(dir);
    return Number(fs.bavail) * Number(fs.bsize);
  } catch {
    return null;
  }
}

function fullDisk(what: string, free: number): StartupError {
  return new StartupError(`${what} is on a full disk (${Math.floor(free / 1024)} KiB free): free some space, or give another folder with --data`);
}

/** The code of the error or of one of its causes that says why (drizzle wraps SQLite's). */
function knownCode(error: unknown): string {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    const code = typeof e.code === "string" ? e.code : "";
    if (WHY[code] || WHY[code.replace(/_.*$/, "")]) return code;
  }
  return "";
}

export function startupProblem(error: unknown, what: string, dir?: string): StartupError {
  const code = knownCode(error);
  const free = dir === undefined ? null : freeBytes(dir);
  // A full disk may surface as a failed ROLLBACK (SQLite already undid the transaction), not SQLITE_FULL.
  if (free !== null && free < FULL_BELOW_BYTES && !["EROFS", "EACCES", "EPERM", "SQLITE_READONLY"].includes(code)) return fullDisk(what, free);
  const reason = WHY[code] ?? WHY[code.replace(/_.*$/, "")] ?? `cannot be used (${(error as Error).message.split("\n")[0]})`;
  return new StartupError(`${what} ${reason}`);
}

/** The data folder, 0700 (created so, or corrected), and checked writable. */
export function secureDataFolder(dataDir: string): void {
  try {
    makeFolder(dataDir);
    if ((statSync(dataDir).mode & 0o077) !== 0) chmodSync(dataDir, 0o700);
    const free = freeBytes(dataDir);
    if (free !== null && free < MIN_FREE_BYTES) throw fullDisk(`the data folder ${dataDir}`, free);
    // A full disk may accept creating a file but not writing to it: write a few KiB.
    const probe = join(dataDir, `.write-check-${process.pid}`);
    try {
      writeFileSync(probe, Buffer.alloc(16 * 1024), { mode: 0o600 });
    } finally {
      rmSync(probe, { force: true });
    }
  } catch (error) {
    if (error instanceof StartupError) throw error;
    throw startupProblem(error, `the data folder ${dataDir}`, dataDir);
  }
}

/**
 * mkdir -p, 0700. A recursive mkdir on a read-only disk fails with ENOENT, not EROFS; the
 * nearest folder that exists says why.
 */
function makeFolder(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    let parent = dirname(dir);
    while (!existsSync(parent) && dirname(parent) !== parent) parent = dirname(parent);
    accessSync(parent, constants.W_OK);
    throw error;
  }
}

/** The database files are readable by this user only. */
export function secureDatabaseFiles(dataDir: string): void {
  const db = databaseFile(dataDir);
  for (const file of [db, `${db}-wal`, `${db}-shm`]) {
    if (existsSync(file) && (statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  }
}

/**
 * Opens (and migrates) the database, creating its file 0600 first; a one-line error when it cannot.
 * A SqliteStore: the farm's reads and writes go through its units, and file-level tools (copies,
 * integrity checks) may use its `.sqlite` handle.
 */
export function openDataStore(dataDir: string): SqliteStore {
  const db = databaseFile(dataDir);
  try {
    if (!existsSync(db)) writeFileSync(db, "", { mode: 0o600 });
    const store = openStore(db);
    secureDatabaseFiles(dataDir);
    return store;
  } catch (error) {
    throw startupProblem(error, `the database ${db}`, dataDir);
  }
}

/**
 * The farm's store: PostgreSQL when `databaseUrl` is set (migrated on open; replicas share it),
 * else the data folder's SQLite file (openDataStore). A one-line error when it cannot be opened.
 */
export async function openFarmStore(dataDir: string, databaseUrl: string | undefined): Promise<Store> {
  if (databaseUrl === undefined) return openDataStore(dataDir);
  try {
    return await openAsyncStore(databaseUrl);
  } catch (error) {
    throw new StartupError(`the PostgreSQL database ${redactedUrl(databaseUrl)} cannot be used: ${(error as Error).message}`);
  }
}

/** A connection URL without its password, fit for a message or a log. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(an unreadable URL)";
  }
}

export interface PreparedData {
  poolToken: string;
  poolTokenFile: string;
  /** False when the pool's token was rotated or revoked since the file was written. */
  poolTokenMatches: boolean;
  /** LOOM_POOL_TOKEN is set but is not the file's token (it counts on the first start only). */
  poolPresetIgnored: boolean;
  localAdmin: LocalAdminState;
  /** The setup token to print, when nobody has an account yet. */
  setupToken: string | null;
  /** Local workers of the previous start that were still shown connected, now released. */
  releasedWorkers: string[];
}

/**
 * The local pool's token as its file keeps it. The file is written once, on the first start
 * (with LOOM_POOL_TOKEN when set, else a new token); afterwards only a rotation from the portal
 * changes it (services/pools.ts), so a restart never brings back a token an admin replaced.
 */
function localPoolToken(file: string, preset: string | undefined): string {
  if (existsSync(file)) {
    const saved = readFileSync(file, "utf8").trim();
    if (saved.length >= 16) return saved;
  }
  const token = preset ?? newSecret("enrollment");
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return token;
}

/** The token files are the server's alone, like the database (corrected when they were wider). */
export function secureTokenFiles(dataDir: string): void {
  for (const file of [LOCAL_POOL_TOKEN_FILE, LOCAL_ADMIN_TOKEN_FILE, LOCAL_WORKERS_FILE].map((name) => join(dataDir, name))) {
    if (existsSync(file) && (statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  }
}

/** Everything a start needs from the data folder (see the header). */
export async function prepareDataFolder(dataDir: string, env: ServerEnv): Promise<PreparedData> {
  secureDataFolder(dataDir);
  const store = await openFarmStore(dataDir, env.LOOM_DATABASE_URL);
  try {
    const farm = createFarm(store, { settings: settingsFromEnv(env, dataDir) });
    const poolTokenFile = join(dataDir, LOCAL_POOL_TOKEN_FILE);
    const poolToken = localPoolToken(poolTokenFile, env.LOOM_POOL_TOKEN);
    const pool = await ensurePool(farm, env.LOOM_POOL_NAME, poolToken, SYSTEM_ACTOR);
    const localAdmin = await ensureLocalAdmin(farm, dataDir);
    const setupToken = await openSetup(farm, env.LOOM_SETUP_TOKEN);
    secureTokenFiles(dataDir);
    const poolPresetIgnored = env.LOOM_POOL_TOKEN !== undefined && env.LOOM_POOL_TOKEN !== poolToken;
    const previous = readLocalWorkers(dataDir);
    // A `loom serve` still running on this folder keeps its workers (its record is not stale).
    const previousGone = previous !== null && (previous.servePid === process.pid || !processExists(previous.servePid));
    const releasedWorkers = previous && previousGone ? await releaseLocalWorkers(farm, pool.poolId, previous.workers) : [];
    return { poolToken, poolTokenFile, poolTokenMatches: pool.tokenMatches, poolPresetIgnored, localAdmin, setupToken, releasedWorkers };
  } catch (error) {
    if (error instanceof StartupError) throw error;
    throw startupProblem(error, `the data folder ${dataDir}`, dataDir);
  } finally {
    await store.close();
  }
}

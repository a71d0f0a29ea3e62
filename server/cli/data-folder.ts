/**
 * `loom serve`'s first steps on its data folder, before any server listens:
 *
 * - the folder is the server's alone: 0700, the database files 0600 (they hold every job and
 *   every credential's hash), created that way and corrected on each start;
 * - a read-only or full disk is one line saying so, not a stack trace;
 * - the local pool exists (made with `local-pool.token`, or LOOM_POOL_TOKEN, on the first start;
 *   never reset afterwards, so a rotation or revocation from the portal stays);
 * - the local admin's token file (server/auth/first-start.ts) and, while nobody has an account,
 *   the one-time setup address.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ensureLocalAdmin, openSetup, type LocalAdminState } from "../auth/first-start";
import { newSecret } from "../auth/secrets";
import { databaseFile, openStore, type Store } from "../db/connection";
import type { ServerEnv } from "../env";
import { SYSTEM_ACTOR } from "../services/audit";
import { createFarm } from "../services/farm";
import { settingsFromEnv } from "../services/farm-settings";
import { ensurePool } from "../services/pools";

export const LOCAL_POOL_TOKEN_FILE = "local-pool.token";

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

export function startupProblem(error: unknown, what: string): StartupError {
  const code = (error as { code?: string }).code ?? "";
  const reason = WHY[code] ?? WHY[code.replace(/_.*$/, "")] ?? `cannot be used (${(error as Error).message.split("\n")[0]})`;
  return new StartupError(`${what} ${reason}`);
}

/** The data folder, 0700 (created so, or corrected), and checked writable. */
export function secureDataFolder(dataDir: string): void {
  try {
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    if ((statSync(dataDir).mode & 0o077) !== 0) chmodSync(dataDir, 0o700);
    // A full disk may accept creating a file but not writing to it: write a few KiB.
    const probe = join(dataDir, `.write-check-${process.pid}`);
    try {
      writeFileSync(probe, Buffer.alloc(16 * 1024), { mode: 0o600 });
    } finally {
      rmSync(probe, { force: true });
    }
  } catch (error) {
    throw startupProblem(error, `the data folder ${dataDir}`);
  }
}

/** The database files are readable by this user only. */
export function secureDatabaseFiles(dataDir: string): void {
  const db = databaseFile(dataDir);
  for (const file of [db, `${db}-wal`, `${db}-shm`]) {
    if (existsSync(file) && (statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  }
}

/** Opens (and migrates) the database, creating its file 0600 first; a one-line error when it cannot. */
export function openDataStore(dataDir: string): Store {
  const db = databaseFile(dataDir);
  try {
    if (!existsSync(db)) writeFileSync(db, "", { mode: 0o600 });
    const store = openStore(db);
    secureDatabaseFiles(dataDir);
    return store;
  } catch (error) {
    throw startupProblem(error, `the database ${db}`);
  }
}

export interface PreparedData {
  poolToken: string;
  poolTokenFile: string;
  /** False when the pool's token was rotated or revoked since the file was written. */
  poolTokenMatches: boolean;
  localAdmin: LocalAdminState;
  /** The setup token to print, when nobody has an account yet. */
  setupToken: string | null;
}

function readOrCreateToken(file: string, preset: string | undefined): string {
  if (preset) return preset;
  if (existsSync(file)) {
    const saved = readFileSync(file, "utf8").trim();
    if (saved.length >= 16) return saved;
  }
  const token = newSecret("enrollment");
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return token;
}

/** Everything a start needs from the data folder (see the header). */
export function prepareDataFolder(dataDir: string, env: ServerEnv): PreparedData {
  secureDataFolder(dataDir);
  const store = openDataStore(dataDir);
  try {
    const farm = createFarm(store, { settings: settingsFromEnv(env, dataDir) });
    const poolTokenFile = join(dataDir, LOCAL_POOL_TOKEN_FILE);
    const poolToken = readOrCreateToken(poolTokenFile, env.LOOM_POOL_TOKEN);
    const pool = ensurePool(farm, env.LOOM_POOL_NAME, poolToken, SYSTEM_ACTOR);
    const localAdmin = ensureLocalAdmin(farm, dataDir);
    const setupToken = openSetup(farm, env.LOOM_SETUP_TOKEN);
    return { poolToken, poolTokenFile, poolTokenMatches: pool.tokenMatches, localAdmin, setupToken };
  } catch (error) {
    if (error instanceof StartupError) throw error;
    throw startupProblem(error, `the data folder ${dataDir}`);
  } finally {
    store.close();
  }
}


/**
 * PostgreSQL for tests: the server named by LOOM_TEST_DATABASE_URL, else the one on
 * 127.0.0.1:5432 (trust auth, user postgres). Each test run gets a database of its own, created
 * with a unique name and dropped at the end, so runs never see each other's rows. A run killed
 * before its end leaves its database behind: the next creation drops those older than a day
 * (their name holds their creation time; younger ones may belong to a run still going).
 * `node scripts/ensure-postgres.mjs` starts (or installs) a server where none answers.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";

export function testServerUrl(): string {
  return process.env.LOOM_TEST_DATABASE_URL || "postgres://postgres@127.0.0.1:5432/postgres";
}

export interface TestDatabase {
  /** The connection string of the fresh database. */
  url: string;
  name: string;
  drop(): Promise<void>;
}

/** The same server's URL with another database. */
export function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
  } catch (error) {
    throw new Error(`PostgreSQL does not answer at ${url.replace(/:[^:@/]*@/, ":***@")} (${(error as Error).message}); run: node scripts/ensure-postgres.mjs`, { cause: error });
  }
  return client;
}

/** Past this age a test database is a leftover: no test run lasts a day. */
export const LEFTOVER_AGE_MS = 24 * 60 * 60 * 1000;

/** `loom_test_mi8k2x3a_1f2e3d4c`: the prefix, the creation time (epoch ms, base36), 4 random bytes. */
const TEST_DATABASE_NAME = /^loom_[a-z0-9_]*?_([0-9a-z]{1,11})_[0-9a-f]{8}$/;
const EARLIEST = Date.UTC(2020, 0, 1);

export function testDatabaseName(prefix: string, now = Date.now()): string {
  return `${prefix}_${now.toString(36)}_${randomBytes(4).toString("hex")}`;
}

/** When a database named by testDatabaseName was created (null: not such a name). */
export function testDatabaseCreatedAt(name: string): number | null {
  const match = TEST_DATABASE_NAME.exec(name);
  if (!match) return null;
  const time = parseInt(match[1]!, 36);
  return Number.isSafeInteger(time) && time >= EARLIEST ? time : null;
}

/** Drops the test databases created more than LEFTOVER_AGE_MS ago; returns their names. Younger ones and other databases stay. */
export async function sweepLeftoverTestDatabases(admin: pg.Client, now = Date.now()): Promise<string[]> {
  const { rows } = await admin.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 'loom\\_%'");
  const swept: string[] = [];
  for (const { datname } of rows) {
    const createdAt = testDatabaseCreatedAt(datname);
    if (createdAt === null || now - createdAt <= LEFTOVER_AGE_MS) continue;
    try {
      // No FORCE: a database someone still uses is left for a later sweep.
      await admin.query(`DROP DATABASE IF EXISTS "${datname}"`);
      swept.push(datname);
    } catch {
      // In use, or another run's sweep dropped it first.
    }
  }
  return swept;
}

/** Creates an empty database with a unique name on the test server (after dropping leftovers of runs that died). */
export async function freshTestDatabase(prefix = "loom_test"): Promise<TestDatabase> {
  const serverUrl = testServerUrl();
  const name = testDatabaseName(prefix);
  const admin = await connect(serverUrl);
  try {
    await sweepLeftoverTestDatabases(admin);
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  return {
    url: withDatabase(serverUrl, name),
    name,
    async drop() {
      const client = await connect(serverUrl);
      try {
        // FORCE (PostgreSQL 13+) ends connections a failed test left open.
        await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

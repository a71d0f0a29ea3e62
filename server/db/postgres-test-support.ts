/**
 * PostgreSQL for tests: the server named by LOOM_TEST_DATABASE_URL, else the one on
 * 127.0.0.1:5432 (trust auth, user postgres). Each test run gets a database of its own, created
 * with a unique name and dropped at the end, so runs never see each other's rows.
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
function withDatabase(serverUrl: string, database: string): string {
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

/** Creates an empty database with a unique name on the test server. */
export async function freshTestDatabase(prefix = "loom_test"): Promise<TestDatabase> {
  const serverUrl = testServerUrl();
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  const admin = await connect(serverUrl);
  try {
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

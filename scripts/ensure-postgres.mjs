#!/usr/bin/env node
// Makes sure the tests have a PostgreSQL: LOOM_TEST_DATABASE_URL when set, else the server on
// 127.0.0.1:5432 (user postgres, trust auth; each test run creates and drops its own database).
// If none answers and we are root on Debian, PostgreSQL is installed from Debian's packages
// (apt, as scripts/e2e.mjs does for Chromium), opened to local connections and started;
// otherwise we stop with the one command that does it. Exit 0: PostgreSQL answers.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import pg from "pg";

const DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/postgres";
const url = process.env.LOOM_TEST_DATABASE_URL || DEFAULT_URL;
const shown = url.replace(/:[^:@/]*@/, ":***@");

/** null when PostgreSQL answers, else the error. */
async function probe() {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
    await client.query("SELECT 1");
    return null;
  } catch (error) {
    return error;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function fail(message) {
  console.error(`ensure-postgres: ${message}`);
  process.exit(1);
}

const run = (command, args) => execFileSync(command, args, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });

/** Clusters as pg_lsclusters lists them: version, name, port, status. */
function clusters() {
  if (spawnSync("pg_lsclusters", ["--help"], { stdio: "ignore" }).status !== 0) return [];
  const out = execFileSync("pg_lsclusters", ["--no-header"], { encoding: "utf8" });
  return out
    .split("\n")
    .filter((line) => line.trim())
    .map((line) => {
      const [version, name, port, status] = line.trim().split(/\s+/);
      return { version, name, port: Number(port), status };
    });
}

/** Local connections without a password, for the cluster this script installed (a test server on loopback only). */
function trustLoopback(cluster) {
  const hba = `/etc/postgresql/${cluster.version}/${cluster.name}/pg_hba.conf`;
  const lines = "host all all 127.0.0.1/32 trust\nhost all all ::1/128 trust\n";
  if (readFileSync(hba, "utf8").startsWith(lines)) return;
  // The first matching line wins: these go before Debian's password rules.
  writeFileSync(hba, `${lines}${readFileSync(hba, "utf8")}`);
}

async function waitForAnswer() {
  let error = null;
  for (let attempt = 0; attempt < 30; attempt++) {
    error = await probe();
    if (!error) return null;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return error;
}

let error = await probe();
if (!error) {
  console.log(`ensure-postgres: PostgreSQL answers at ${shown}`);
  process.exit(0);
}

const refused = ["ECONNREFUSED", "ENOENT", "ETIMEDOUT", "ENETUNREACH", "EHOSTUNREACH", "EADDRNOTAVAIL"].includes(error.code) || /timeout/i.test(error.message);
if (!refused) fail(`PostgreSQL at ${shown} refuses the tests (${error.message}). Give a URL that works: LOOM_TEST_DATABASE_URL=postgres://user:password@host:port/postgres`);
if (process.env.LOOM_TEST_DATABASE_URL) fail(`nothing answers at ${shown} (${error.message}). Start that server, or unset LOOM_TEST_DATABASE_URL to use one on 127.0.0.1:5432.`);

const isRoot = process.getuid?.() === 0;
const hasApt = existsSync("/usr/bin/apt-get");
if (!isRoot || !hasApt) {
  fail(
    hasApt
      ? `nothing answers at ${shown}. Install and start PostgreSQL for the tests with:\n\n  sudo node scripts/ensure-postgres.mjs\n`
      : `nothing answers at ${shown}. Start a PostgreSQL server there (user postgres, trust auth on 127.0.0.1), or set LOOM_TEST_DATABASE_URL.\n`,
  );
}

let installed = false;
if (clusters().length === 0) {
  console.log("ensure-postgres: PostgreSQL is missing; installing Debian's package (apt-get install -y postgresql)…");
  run("apt-get", ["update"]);
  run("apt-get", ["install", "-y", "postgresql"]);
  installed = true;
}
const cluster = clusters().find((c) => c.port === 5432) ?? clusters()[0];
if (!cluster) fail("no PostgreSQL cluster after installing; create one with: sudo pg_createcluster --start 15 main");
if (cluster.port !== 5432)
  fail(`the PostgreSQL cluster ${cluster.version}/${cluster.name} listens on port ${cluster.port}: set LOOM_TEST_DATABASE_URL=postgres://postgres@127.0.0.1:${cluster.port}/postgres`);
if (installed) trustLoopback(cluster);
if (cluster.status === "online") run("pg_ctlcluster", [cluster.version, cluster.name, "reload"]);
else run("pg_ctlcluster", [cluster.version, cluster.name, "start"]);

error = await waitForAnswer();
if (error) fail(`PostgreSQL ${cluster.version}/${cluster.name} is started but does not answer at ${shown} (${error.message}); see /var/log/postgresql/`);
console.log(`ensure-postgres: PostgreSQL ${cluster.version}/${cluster.name} answers at ${shown}`);

#!/usr/bin/env node
// Makes sure the tests have a PostgreSQL: LOOM_TEST_DATABASE_URL when set, else the server on
// 127.0.0.1:5432 (user postgres, trust auth; each test run creates and drops its own database).
// If none answers and we are root on Debian, PostgreSQL is installed from Debian's packages
// (apt, as scripts/e2e.mjs does for Chromium), started, and its pg_hba.conf given two lines that
// let the postgres role in from this machine without a password (said on stdout, with how to
// undo it). Run again, it finishes what a run that died left undone: a cluster that is stopped,
// or that still asks for a password while its pg_hba.conf is Debian's as installed. A cluster
// someone configured is never edited: we stop with what to do. Exit 0: PostgreSQL answers.
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import pg from "pg";

const DEFAULT_URL = "postgres://postgres@127.0.0.1:5432/postgres";

/** What goes at the top of pg_hba.conf (the first matching line wins, so these come before Debian's password rules). */
export const TRUST_COMMENT = "# Added by Loom's scripts/ensure-postgres.mjs for its tests: the postgres role without a password, from this machine only.";
export const TRUST_LINES = ["host all postgres 127.0.0.1/32 trust", "host all postgres ::1/128 trust"];
const TRUST_BLOCK = `${TRUST_COMMENT}\n${TRUST_LINES.join("\n")}\n`;

/** The rules of pg_hba.conf: its lines without comments and blank lines, spaces collapsed. */
function rules(hba) {
  return hba
    .split("\n")
    .map((line) => line.replace(/#.*/, "").trim().replace(/\s+/g, " "))
    .filter(Boolean);
}

/** pg_hba.conf already lets the tests in: it begins with our lines. */
export function hasTrust(hba) {
  return rules(hba).slice(0, TRUST_LINES.length).join("\n") === TRUST_LINES.join("\n");
}

/** pg_hba.conf as Debian's pg_createcluster writes it (peer locally, passwords on loopback): nobody has configured it. */
export function isDebianDefault(hba) {
  const debian = /^(local (all|replication) (postgres|all) peer|host (all|replication) all (127\.0\.0\.1\/32|::1\/128) (md5|scram-sha-256))$/;
  const found = rules(hba);
  return found.length > 0 && found.every((rule) => debian.test(rule));
}

export function withTrust(hba) {
  return `${TRUST_BLOCK}${hba}`;
}

/** The server answered, but refused who we are or asked for a password we do not have. */
export function isAuthRefusal(error) {
  return ["28P01", "28000"].includes(error?.code) || /password|SASL|authentication|pg_hba\.conf/i.test(error?.message ?? "");
}

/** Whether nothing answered at all (as opposed to a server that refused us). */
export function isUnreachable(error) {
  return ["ECONNREFUSED", "ENOENT", "ETIMEDOUT", "ENETUNREACH", "EHOSTUNREACH", "EADDRNOTAVAIL"].includes(error?.code) || /timeout/i.test(error?.message ?? "");
}

/** null when PostgreSQL answers, else the error. */
async function probe(url) {
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

/** Waits for the server to answer; a refusal is an answer (waiting longer changes nothing). */
async function waitForAnswer(url) {
  let error = null;
  for (let attempt = 0; attempt < 30; attempt++) {
    error = await probe(url);
    if (!error || isAuthRefusal(error)) return error;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return error;
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

const hbaPath = (cluster) => `/etc/postgresql/${cluster.version}/${cluster.name}/pg_hba.conf`;

/** Puts our lines at the top of the cluster's pg_hba.conf and says so, with how to undo it. */
function addTrust(cluster) {
  const path = hbaPath(cluster);
  writeFileSync(path, withTrust(readFileSync(path, "utf8")));
  console.log(
    [
      `ensure-postgres: changed ${path}: added at its top`,
      "",
      ...TRUST_BLOCK.trimEnd()
        .split("\n")
        .map((line) => `  ${line}`),
      "",
      "so the tests connect as postgres from this machine (127.0.0.1, ::1) without a password; other roles and other machines are as before.",
      `To undo: delete those ${TRUST_LINES.length + 1} lines from ${path}, then run: pg_ctlcluster ${cluster.version} ${cluster.name} reload`,
    ].join("\n"),
  );
}

async function main() {
  const url = process.env.LOOM_TEST_DATABASE_URL || DEFAULT_URL;
  const shown = url.replace(/:[^:@/]*@/, ":***@");
  const self = relative(process.cwd(), fileURLToPath(import.meta.url)) || "scripts/ensure-postgres.mjs";
  // sudo's PATH may not have the node that runs us (nvm, a tarball): name it.
  const asRoot = `sudo "$(command -v node)" ${self}`;

  let error = await probe(url);
  if (!error) {
    console.log(`ensure-postgres: PostgreSQL answers at ${shown}`);
    return;
  }
  const refused = isAuthRefusal(error);
  if (!refused && !isUnreachable(error)) fail(`PostgreSQL at ${shown} fails (${error.message}). Give a URL that works: LOOM_TEST_DATABASE_URL=postgres://user:password@host:port/postgres`);
  if (process.env.LOOM_TEST_DATABASE_URL) {
    fail(
      refused
        ? `PostgreSQL at ${shown} refuses the tests (${error.message}). Give a URL that works: LOOM_TEST_DATABASE_URL=postgres://user:password@host:port/postgres`
        : `nothing answers at ${shown} (${error.message}). Start that server, or unset LOOM_TEST_DATABASE_URL to use one on 127.0.0.1:5432.`,
    );
  }

  const isRoot = process.getuid?.() === 0;
  const hasApt = existsSync("/usr/bin/apt-get");
  if (!isRoot || !hasApt) {
    const what = refused ? `PostgreSQL at ${shown} refuses the tests (${error.message})` : `nothing answers at ${shown}`;
    fail(
      hasApt
        ? `${what}. Install, start and open PostgreSQL for the tests (the postgres role, from this machine only) with:\n\n  ${asRoot}\n\nor set LOOM_TEST_DATABASE_URL to a server that lets them in.\n`
        : `${what}. Start a PostgreSQL server there (user postgres, trust auth on 127.0.0.1), or set LOOM_TEST_DATABASE_URL.\n`,
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
  const readHba = () => readFileSync(hbaPath(cluster), "utf8");
  // Ours (just installed), or Debian's as installed by a run that died before this edit.
  if (!hasTrust(readHba()) && (installed || (refused && isDebianDefault(readHba())))) addTrust(cluster);
  if (cluster.status === "online") run("pg_ctlcluster", [cluster.version, cluster.name, "reload"]);
  else run("pg_ctlcluster", [cluster.version, cluster.name, "start"]);

  error = await waitForAnswer(url);
  // It was stopped: only now do we know that it asks for a password.
  if (error && isAuthRefusal(error) && !hasTrust(readHba()) && isDebianDefault(readHba())) {
    addTrust(cluster);
    run("pg_ctlcluster", [cluster.version, cluster.name, "reload"]);
    error = await waitForAnswer(url);
  }
  if (error && isAuthRefusal(error) && hasTrust(readHba())) {
    fail(`PostgreSQL ${cluster.version}/${cluster.name} refuses the tests (${error.message}) although ${hbaPath(cluster)} begins with the lines that let them in; see /var/log/postgresql/`);
  }
  if (error && isAuthRefusal(error)) {
    fail(
      `PostgreSQL ${cluster.version}/${cluster.name} refuses the tests (${error.message}), and its ${hbaPath(cluster)} is not Debian's as installed: someone configured it, so it is left as it is.\n` +
        `Let the postgres role in from this machine with these lines at its top, then run pg_ctlcluster ${cluster.version} ${cluster.name} reload:\n\n  ${TRUST_LINES.join("\n  ")}\n\n` +
        "or set LOOM_TEST_DATABASE_URL to a URL with a password.\n",
    );
  }
  if (error) fail(`PostgreSQL ${cluster.version}/${cluster.name} is started but does not answer at ${shown} (${error.message}); see /var/log/postgresql/`);
  console.log(`ensure-postgres: PostgreSQL ${cluster.version}/${cluster.name} answers at ${shown}`);
}

// Run as a script; imported (to check the pg_hba.conf rules above), it does nothing.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();

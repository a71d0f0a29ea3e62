/**
 * `loom serve [--host H] [--port P] [--data DIR] [--database URL] [--workers N] [--headless]`: the
 * whole farm on one machine (what `npm start` runs). The server (portal + API, or with --headless
 * the API alone) owns SQLite in DIR, or uses the PostgreSQL database at URL (also
 * LOOM_DATABASE_URL), which several `loom serve` replicas may share; N local worker agents enroll in the local pool over HTTP exactly like
 * remote ones, with the pool's token file (tasks never see it: the workers hide the data folder).
 *
 * Before anything listens it prepares the data folder (data-folder.ts): permissions, the
 * database, the local pool, the local admin's token for `loom` on this machine, and while nobody
 * has an account the one-time setup address it prints.
 *
 * The first Ctrl-C (or SIGTERM) drains the workers (each finishes its current task and exits its
 * environments), then stops the server; a second one stops everything at once.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { LOCAL_ADMIN_TOKEN_FILE } from "../auth/first-start";
import { childEnvironment, serverEnv } from "../env";
import { LineSplitter } from "../session/line-splitter";
import { parseArgs, UsageError } from "./args";
import { prepareDataFolder, redactedUrl, StartupError, type PreparedData } from "./data-folder";
import { isPostgresUrl } from "../store/engine/open-store";
import type { CliIo } from "./io";
import { newLocalWorkers, writeLocalWorkers } from "./local-workers-file";
import type { LocalWorker } from "../services/local-workers";

export const SERVE_USAGE = "usage: loom serve [--host 127.0.0.1] [--port 3000] [--data ./data] [--database postgres://…] [--workers 2] [--headless]";

/** Children in their own process groups: killed if `loom serve` exits without stopping them. */
const children = new Set<ChildProcess>();
process.once("exit", () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
});

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const LOOM_BIN = join(REPO, "bin", "loom.mjs");

export async function runServe(argv: readonly string[], io: CliIo, signal: AbortSignal | null, forceStop: AbortSignal | null = null): Promise<number> {
  const args = parseArgs(argv, { values: ["--host", "--port", "--data", "--database", "--workers"], booleans: ["--headless"] });
  if (args.positionals.length > 0) throw new UsageError("serve takes no positional arguments");
  const host = args.values.get("--host") ?? "127.0.0.1";
  const port = Number(args.values.get("--port") ?? "3000");
  const workers = Number(args.values.get("--workers") ?? "2");
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError("--port takes a port number");
  if (!Number.isInteger(workers) || workers < 0 || workers > 64) throw new UsageError("--workers takes a number from 0 to 64");
  const dataDir = resolve(io.cwd, args.values.get("--data") ?? "data");
  const database = args.values.get("--database");
  if (database !== undefined && !isPostgresUrl(database)) throw new UsageError("--database takes a PostgreSQL connection URL (postgres://user@host:5432/database)");
  // --database beats LOOM_DATABASE_URL; the portal's process gets it in its environment.
  const env = { ...serverEnv(), ...(database !== undefined ? { LOOM_DATABASE_URL: database } : {}) };

  let prepared;
  try {
    prepared = await prepareDataFolder(dataDir, env);
  } catch (error) {
    if (error instanceof StartupError) {
      io.err(`loom serve: ${error.message}`);
      return 1;
    }
    throw error;
  }
  if (!isLoopback(host) && !(env.LOOM_PUBLIC_URL ?? "").startsWith("https:")) {
    io.err(
      `loom serve: warning: serving on ${host} over plain HTTP: passwords, session cookies and tokens would cross the network in clear. ` +
        "Put Loom behind an HTTPS reverse proxy and set LOOM_PUBLIC_URL=https://… (see README, 'Users, roles and tokens').",
    );
  }

  // The local agents start with the server, not after it: each takes seconds to load, and the
  // server's address (one line on its stdin) tells it to enrol, once the record below is written.
  const local = newLocalWorkers(workers);
  const agents = local.map((worker) => startAgent(io, prepared.poolTokenFile, worker, dataDir));
  let server: ServerHandle;
  try {
    // Loaded only here: the portal's own process is what needs Next.js, not this one.
    server = args.booleans.has("--headless") ? await (await import("./headless")).startHeadless(dataDir, env, host, port) : await webServer(io, dataDir, env.LOOM_DATABASE_URL, host, port);
  } catch (error) {
    for (const agent of agents) agent.stdin?.end(); // no address: they stop
    if (error instanceof StartupError) {
      io.err(`loom serve: ${error.message}`);
      return 1;
    }
    throw error;
  }
  // Recorded before anything is said: whoever reads "serving" finds the data folder complete.
  writeLocalWorkers(dataDir, { servePid: process.pid, workers: local });
  io.out(`Loom is serving at ${server.url} (data in ${dataDir}${env.LOOM_DATABASE_URL ? `, database ${redactedUrl(env.LOOM_DATABASE_URL)}` : ""})`);
  describeAccess(io, server.url, dataDir, prepared);
  if (prepared.releasedWorkers.length > 0) {
    io.out(`The previous loom serve stopped without its workers finishing: ${prepared.releasedWorkers.join(", ")} released, their tasks back in the queue.`);
  }
  for (const agent of agents) agent.stdin?.end(`${server.url}\n`);

  await new Promise<void>((resolveStop) => {
    if (!signal) return;
    if (signal.aborted) return resolveStop();
    signal.addEventListener("abort", () => resolveStop(), { once: true });
  });
  io.out("Stopping: the workers finish their current task, then the server stops (Ctrl-C again to stop at once).");
  forceStop?.addEventListener("abort", () => {
    for (const agent of agents) agent.kill("SIGKILL");
  });
  for (const agent of agents) agent.kill("SIGTERM");
  await Promise.all(agents.map((agent) => exited(agent)));
  await server.stop();
  io.out("Loom stopped.");
  return 0;
}

function isLoopback(host: string): boolean {
  return host === "127.0.0.1" || host === "::1" || host === "localhost" || host.startsWith("127.");
}

/** What a person needs to get in: the setup address on a fresh farm, and the local admin token's state. */
function describeAccess(io: CliIo, url: string, dataDir: string, prepared: PreparedData): void {
  if (prepared.setupToken) {
    io.out("");
    io.out("No accounts yet. Create the first admin at this one-time address (valid until used; a restart prints a new one):");
    io.out(`  ${url}/setup?token=${prepared.setupToken}`);
    io.out("");
  }
  if (prepared.localAdmin === "revoked") {
    io.err(
      `loom serve: the local admin token in ${join(dataDir, LOCAL_ADMIN_TOKEN_FILE)} was revoked: 'loom' on this machine needs 'loom login' (for a new one: 'loom user enable local-admin' if it was disabled, then delete the file and restart)`,
    );
  }
  if (prepared.poolPresetIgnored) {
    io.err(`loom serve: LOOM_POOL_TOKEN is not the local pool's token (it only counts on a data folder's first start; the current one is in ${prepared.poolTokenFile})`);
  }
  if (!prepared.poolTokenMatches) {
    io.err(
      `loom serve: the local pool's enrollment token was rotated or revoked, and ${prepared.poolTokenFile} holds an old one: ` +
        "the local workers cannot enroll until the file holds the pool's current token (rotate it from the Pools page; the local pool's new token is written there)",
    );
  }
}

export interface ServerHandle {
  url: string;
  stop(): Promise<void>;
}

async function webServer(io: CliIo, dataDir: string, databaseUrl: string | undefined, host: string, port: number): Promise<ServerHandle> {
  const env = childEnvironment({
    LOOM_DATA_DIR: dataDir,
    NEXT_TELEMETRY_DISABLED: "1",
    LOOM_PARENT_PID: String(process.pid),
    ...(databaseUrl !== undefined ? { LOOM_DATABASE_URL: databaseUrl } : {}),
  });
  const distDir = join(REPO, serverEnv().LOOM_NEXT_DIST_DIR);
  const stampFile = join(distDir, "loom-build-stamp");
  const stamp = sourceStamp();
  const built = existsSync(join(distDir, "BUILD_ID")) && existsSync(stampFile) && readFileSync(stampFile, "utf8") === stamp;
  if (!built) {
    io.out("Building the web app (the sources changed since the last build, or it was never built)…");
    const next = join(REPO, "node_modules", "next", "dist", "bin", "next");
    const build = spawn(process.execPath, [next, "build"], { cwd: REPO, env, stdio: "inherit" });
    if ((await exited(build)) !== 0) throw new Error("next build failed");
    writeFileSync(stampFile, stamp);
  }
  // Its own process group: a terminal's Ctrl-C reaches only `loom serve`, which stops the
  // workers first (they need the server to report their last task) and the server last.
  const child = track(spawn(process.execPath, [LOOM_BIN, "serve-web", "--host", host, "--port", String(port)], { cwd: REPO, env, stdio: ["ignore", "inherit", "inherit"], detached: true }));
  const url = `http://${host.includes(":") ? `[${host}]` : host === "0.0.0.0" ? "127.0.0.1" : host}:${port}`;
  try {
    await waitForServer(`${url}/api/health`, child);
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return {
    url,
    stop: async () => {
      child.kill("SIGTERM");
      await exited(child);
    },
  };
}

/** Changes whenever a source the web app is built from changes (size and modification time of each file). */
function sourceStamp(): string {
  const hash = createHash("sha256");
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(tsx?|css|svg|json|mjs|sql)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        const stat = statSync(path);
        hash.update(`${path}\0${stat.size}\0${stat.mtimeMs}\n`);
      }
    }
  };
  for (const dir of ["app", "components", "lib", "server", "public", "drizzle"]) walk(join(REPO, dir));
  for (const file of ["next.config.ts", "instrumentation.ts", "package-lock.json", "tsconfig.json"]) {
    const path = join(REPO, file);
    if (existsSync(path)) hash.update(`${file}\0${statSync(path).mtimeMs}\n`);
  }
  return hash.digest("hex");
}

async function waitForServer(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new StartupError(`the web server exited with code ${child.exitCode} (its error is above)`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new StartupError(`the server did not answer at ${url} within 120 s`);
}

function startAgent(io: CliIo, tokenFile: string, { name, instanceId }: LocalWorker, dataDir: string): ChildProcess {
  const args = [LOOM_BIN, "worker", "--server-on-stdin", "--name", name, "--token-file", tokenFile, "--session-root", join(dataDir, "sessions", name), "--hide", dataDir];
  const child = track(
    spawn(process.execPath, args, {
      cwd: REPO,
      env: withoutDatabase(childEnvironment({ LOOM_PARENT_PID: String(process.pid), LOOM_WORKER_INSTANCE_ID: instanceId })),
      stdio: ["pipe", "pipe", "pipe"],
      detached: true, // see webServer: signals come from `loom serve` alone
    }),
  );
  child.stdin?.on("error", () => undefined); // it is gone: its exit says why
  for (const stream of [child.stdout, child.stderr]) {
    const lines = new LineSplitter((line) => io.out(`[${name}] ${line}`));
    stream?.on("data", (chunk: Buffer) => lines.push(chunk));
    stream?.on("end", () => lines.end());
  }
  return child;
}

/** A worker talks to the server over HTTP alone: it never gets the database's URL (it may hold a password). */
function withoutDatabase(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  delete env.LOOM_DATABASE_URL;
  return env;
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolveExit) => child.once("exit", (code) => resolveExit(code)));
}

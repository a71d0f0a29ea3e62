/**
 * `loom serve [--host H] [--port P] [--data DIR] [--workers N] [--headless]`: the whole farm on one
 * machine (what `npm start` runs). The server (Next.js: portal + API; or with --headless the API
 * alone on a plain Node server) owns SQLite in DIR; N local worker agents join the default pool
 * over HTTP exactly like remote ones, with a token generated for this run.
 *
 * The first Ctrl-C (or SIGTERM) drains the workers (each finishes its current task and exits its
 * environments), then stops the server; a second one stops everything at once.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { apiHandler } from "../api/app-handler";
import { startNodeServer } from "../api/node-server";
import { databaseFile, openStore } from "../db/connection";
import { childEnvironment, serverEnv } from "../env";
import { refreshCompatibility } from "../services/compatibility";
import { createFarm } from "../services/farm";
import { FarmLoop } from "../services/farm-loop";
import { ensurePool } from "../services/pools";
import { LineSplitter } from "../session/line-splitter";
import { parseArgs, UsageError } from "./args";
import type { CliIo } from "./io";

export const SERVE_USAGE = "usage: loom serve [--host 127.0.0.1] [--port 3000] [--data ./data] [--workers 2] [--headless]";

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
  const args = parseArgs(argv, { values: ["--host", "--port", "--data", "--workers"], booleans: ["--headless"] });
  if (args.positionals.length > 0) throw new UsageError("serve takes no positional arguments");
  const host = args.values.get("--host") ?? "127.0.0.1";
  const port = Number(args.values.get("--port") ?? "3000");
  const workers = Number(args.values.get("--workers") ?? "2");
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError("--port takes a port number");
  if (!Number.isInteger(workers) || workers < 0 || workers > 64) throw new UsageError("--workers takes a number from 0 to 64");
  const dataDir = resolve(io.cwd, args.values.get("--data") ?? "data");
  const env = serverEnv();
  const token = env.LOOM_POOL_TOKEN ?? localPoolToken(dataDir);

  const server = args.booleans.has("--headless") ? await headless(dataDir, token, env.LOOM_POOL_NAME, host, port) : await nextServer(io, dataDir, token, host, port);
  io.out(`Loom is serving at ${server.url} (data in ${dataDir})`);
  const agents = Array.from({ length: workers }, (_, i) => startAgent(io, server.url, token, `local-${i + 1}`, dataDir));

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

interface ServerHandle {
  url: string;
  stop(): Promise<void>;
}

/**
 * The local pool's token: kept in the data folder (readable by this user only), so workers that
 * outlive a crashed `loom serve` — and remote workers given the file — reconnect after a restart.
 */
function localPoolToken(dataDir: string): string {
  const file = join(dataDir, "local-pool.token");
  if (existsSync(file)) {
    const saved = readFileSync(file, "utf8").trim();
    if (saved.length >= 16) return saved;
  }
  mkdirSync(dataDir, { recursive: true });
  const token = `loom_${randomBytes(24).toString("base64url")}`;
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  return token;
}

async function headless(dataDir: string, token: string, poolName: string, host: string, port: number): Promise<ServerHandle> {
  const store = openStore(databaseFile(dataDir));
  const env = serverEnv();
  const farm = createFarm(store, { settings: { syncIntervalSeconds: env.LOOM_SYNC_INTERVAL_SECONDS, workerTimeoutSeconds: env.LOOM_WORKER_TIMEOUT_SECONDS } });
  ensurePool(farm, poolName, token);
  refreshCompatibility(farm);
  const loop = new FarmLoop(farm);
  loop.start();
  const running = await startNodeServer(apiHandler(farm), { host, port });
  return {
    url: running.url,
    stop: async () => {
      await loop.stop();
      await running.close();
      store.close();
    },
  };
}

async function nextServer(io: CliIo, dataDir: string, token: string, host: string, port: number): Promise<ServerHandle> {
  const env = childEnvironment({ LOOM_DATA_DIR: dataDir, LOOM_POOL_TOKEN: token, NEXT_TELEMETRY_DISABLED: "1", LOOM_PARENT_PID: String(process.pid) });
  const next = join(REPO, "node_modules", "next", "dist", "bin", "next");
  const distDir = join(REPO, serverEnv().LOOM_NEXT_DIST_DIR);
  const stampFile = join(distDir, "loom-build-stamp");
  const stamp = sourceStamp();
  const built = existsSync(join(distDir, "BUILD_ID")) && existsSync(stampFile) && readFileSync(stampFile, "utf8") === stamp;
  if (!built) {
    io.out("Building the web app (the sources changed since the last build, or it was never built)…");
    const build = spawn(process.execPath, [next, "build"], { cwd: REPO, env, stdio: "inherit" });
    if ((await exited(build)) !== 0) throw new Error("next build failed");
    writeFileSync(stampFile, stamp);
  }
  // Its own process group: a terminal's Ctrl-C reaches only `loom serve`, which stops the
  // workers first (they need the server to report their last task) and the server last.
  const child = track(spawn(process.execPath, [next, "start", "-H", host, "-p", String(port)], { cwd: REPO, env, stdio: ["ignore", "inherit", "inherit"], detached: true }));
  const url = `http://${host}:${port}`;
  try {
    await waitForServer(`${url}/api/trpc/pools.list`, child);
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
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the server did not answer at ${url} within 120 s`);
}

function startAgent(io: CliIo, url: string, token: string, name: string, dataDir: string): ChildProcess {
  const child = track(spawn(process.execPath, [LOOM_BIN, "worker", "--server", url, "--name", name, "--session-root", join(dataDir, "sessions", name)], {
    cwd: REPO,
    env: childEnvironment({ LOOM_WORKER_TOKEN: token, LOOM_PARENT_PID: String(process.pid) }),
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // see nextServer: signals come from `loom serve` alone
  }));
  for (const stream of [child.stdout, child.stderr]) {
    const lines = new LineSplitter((line) => io.out(`[${name}] ${line}`));
    stream?.on("data", (chunk: Buffer) => lines.push(chunk));
    stream?.on("end", () => lines.end());
  }
  return child;
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolveExit) => child.once("exit", (code) => resolveExit(code)));
}

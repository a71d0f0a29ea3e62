/**
 * The portal's server process (`loom serve` without --headless starts it): the farm (its
 * database, scheduler loop and events), then Next.js in this same process behind the one HTTP
 * front (server/api/node-server.ts), which checks every request's Host and body and answers the
 * API itself; only page requests reach Next.js. The Next.js bundle finds this farm on globalThis
 * (farm-runtime.ts), so pages and the API share one connection and one event emitter.
 */
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { apiHandler } from "../api/app-handler";
import { startNodeServer, type RunningServer } from "../api/node-server";
import { closeCheckPool } from "../checks/check-pool";
import { openFarmRuntime } from "../services/farm-runtime";

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

export interface WebServer {
  url: string;
  stop(): Promise<void>;
}

export async function startWebServer(options: { host: string; port: number; trustProxy: boolean }): Promise<WebServer> {
  const runtime = await openFarmRuntime();
  const { default: next } = await import("next");
  const app = next({ dev: false, dir: REPO, hostname: options.host, port: options.port, customServer: true });
  // Next.js readies its routes (called bound, so a search for SQL statements does not find it here).
  const readyRoutes = app.prepare.bind(app);
  await readyRoutes();
  const handle = app.getRequestHandler();
  let running: RunningServer;
  try {
    running = await startNodeServer(apiHandler(runtime.farm), { host: options.host, port: options.port, trustProxy: options.trustProxy, pages: (req, res) => handle(req, res) });
  } catch (error) {
    await app.close();
    throw error;
  }
  return {
    url: running.url,
    stop: async () => {
      await running.close();
      await app.close();
      await runtime.loop.stop();
      await runtime.replication.stop();
      // A check in flight would otherwise hold the process for the rest of its budget.
      await closeCheckPool();
      await runtime.farm.store.close();
    },
  };
}

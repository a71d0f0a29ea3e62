/**
 * `loom serve --headless` and `loom serve-web`: the two ways the farm server runs. Headless is the
 * API alone (worker protocol and tRPC) on the Node front in this process; serve-web is the
 * process `loom serve` starts for the portal (server/web/web-server.ts).
 */
import { apiHandler } from "../api/app-handler";
import { closeCheckPool } from "../checks/check-pool";
import { startNodeServer } from "../api/node-server";
import { databaseFile } from "../db/connection";
import type { ServerEnv } from "../env";
import { serverEnv } from "../env";
import { exitWithParent } from "../parent-watch";
import { refreshCompatibility } from "../services/compatibility";
import { createFarm } from "../context/farm";
import { FarmLoop } from "../services/farm-loop";
import { startReplication } from "../services/replication";
import { settingsFromEnv } from "../context/farm-settings";
import { startWebServer } from "../web/web-server";
import { parseArgs, UsageError } from "./args";
import { openFarmStore, redactedUrl } from "./data-folder";
import type { CliIo } from "./io";
import type { ServerHandle } from "./serve";

export async function startHeadless(dataDir: string, env: ServerEnv, host: string, port: number): Promise<ServerHandle> {
  const store = await openFarmStore(dataDir, env.LOOM_DATABASE_URL);
  const farm = createFarm(store, { settings: settingsFromEnv(env, dataDir) });
  await refreshCompatibility(farm);
  const replication = await startReplication(farm, env.LOOM_DATABASE_URL);
  const loop = new FarmLoop(farm, undefined, replication.leadership);
  loop.start();
  const running = await startNodeServer(apiHandler(farm), { host, port, trustProxy: env.LOOM_TRUST_PROXY });
  return {
    url: running.url,
    stop: async () => {
      await loop.stop();
      await replication.stop();
      // A check in flight would otherwise hold the process for the rest of its budget.
      await closeCheckPool();
      await running.close();
      await store.close();
    },
  };
}

/** `loom serve-web --host H --port P` (internal: started by `loom serve`, settings in the environment). */
export async function runServeWeb(argv: readonly string[], io: CliIo, signal: AbortSignal | null): Promise<number> {
  const args = parseArgs(argv, { values: ["--host", "--port"] });
  const host = args.values.get("--host") ?? "127.0.0.1";
  const port = Number(args.values.get("--port") ?? "3000");
  if (!Number.isInteger(port)) throw new UsageError("--port takes a port number");
  const env = serverEnv();
  const server = await startWebServer({ host, port, trustProxy: env.LOOM_TRUST_PROXY });
  if (env.LOOM_PARENT_PID) exitWithParent(env.LOOM_PARENT_PID, "the web server");
  io.out(`web server ready at ${server.url} (database ${env.LOOM_DATABASE_URL ? redactedUrl(env.LOOM_DATABASE_URL) : databaseFile(env.LOOM_DATA_DIR)})`);
  await new Promise<void>((resolve) => {
    if (!signal || signal.aborted) return resolve();
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
  await server.stop();
  return 0;
}

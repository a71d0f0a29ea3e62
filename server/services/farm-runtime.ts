/**
 * The one farm of a server process: opened on first use from the environment settings (the
 * Next.js route handlers, `loom serve --headless`), kept on globalThis so development hot reloads
 * do not open the database twice, with its background loop started.
 */
import { databaseFile, openStore } from "../db/connection";
import { serverEnv } from "../env";
import { refreshCompatibility } from "./compatibility";
import { createFarm, type Farm } from "./farm";
import { FarmLoop } from "./farm-loop";
import { ensurePool } from "./pools";

interface Runtime {
  farm: Farm;
  loop: FarmLoop;
}

const KEY = Symbol.for("loom.farm-runtime");
type Holder = { [KEY]?: Runtime };

export function farmRuntime(): Runtime {
  const holder = globalThis as Holder;
  if (holder[KEY]) return holder[KEY];
  const env = serverEnv();
  const store = openStore(databaseFile(env.LOOM_DATA_DIR));
  const farm = createFarm(store, { settings: { syncIntervalSeconds: env.LOOM_SYNC_INTERVAL_SECONDS, workerTimeoutSeconds: env.LOOM_WORKER_TIMEOUT_SECONDS } });
  if (env.LOOM_POOL_TOKEN) ensurePool(farm, env.LOOM_POOL_NAME, env.LOOM_POOL_TOKEN);
  refreshCompatibility(farm);
  const loop = new FarmLoop(farm);
  loop.start();
  holder[KEY] = { farm, loop };
  return holder[KEY];
}

export function getFarm(): Farm {
  return farmRuntime().farm;
}

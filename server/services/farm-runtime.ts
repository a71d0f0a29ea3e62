/**
 * The one farm of a server process: opened on first use from the environment settings (the web
 * server `loom serve` starts, the Next.js route handlers of `next dev`), kept on globalThis so
 * the web server, the Next.js bundle it hosts and development hot reloads all share one
 * database connection and one event emitter, with the background loop started once.
 */
import { databaseFile, openStore, type Store } from "../db/connection";
import { serverEnv, type ServerEnv } from "../env";
import { openAsyncStore } from "../store/engine/open-store";
import { refreshCompatibility } from "./compatibility";
import { createFarm, type Farm } from "../context/farm";
import { FarmLoop } from "./farm-loop";
import { SOLO_REPLICATION, startReplication, type Replication } from "./replication";
import { settingsFromEnv } from "../context/farm-settings";

interface Runtime {
  farm: Farm;
  loop: FarmLoop;
  /** Shared events and leadership among replicas on PostgreSQL (nothing to do on SQLite). */
  replication: Replication;
}

const KEY = Symbol.for("loom.farm-runtime");
type Holder = { [KEY]?: Runtime };

/**
 * Opens the farm before the web server takes requests: PostgreSQL (LOOM_DATABASE_URL) opens and
 * migrates asynchronously, so `loom serve-web` calls this first; farmRuntime() then finds it.
 */
export async function openFarmRuntime(): Promise<Runtime> {
  const holder = globalThis as Holder;
  if (holder[KEY]) return holder[KEY];
  const env = serverEnv();
  if (!env.LOOM_DATABASE_URL) return start(openStore(databaseFile(env.LOOM_DATA_DIR)), env, SOLO_REPLICATION);
  const store = await openAsyncStore(env.LOOM_DATABASE_URL);
  // Another caller may have opened it while this one waited.
  if (holder[KEY]) {
    await store.close();
    return holder[KEY];
  }
  const farm = createFarm(store, { settings: settingsFromEnv(env, env.LOOM_DATA_DIR) });
  const replication = await startReplication(farm, env.LOOM_DATABASE_URL);
  return start(store, env, replication, farm);
}

export function farmRuntime(): Runtime {
  const holder = globalThis as Holder;
  if (holder[KEY]) return holder[KEY];
  const env = serverEnv();
  if (env.LOOM_DATABASE_URL) throw new Error("the farm on PostgreSQL is opened by openFarmRuntime() before the server takes requests");
  return start(openStore(databaseFile(env.LOOM_DATA_DIR)), env, SOLO_REPLICATION);
}

function start(store: Store, env: ServerEnv, replication: Replication, made?: Farm): Runtime {
  const holder = globalThis as Holder;
  const farm = made ?? createFarm(store, { settings: settingsFromEnv(env, env.LOOM_DATA_DIR) });
  // Not awaited (callers want the farm at once), yet first in line: SQLite runs units in the order
  // they start, so the requests' units see the steps' compatibility decided.
  refreshCompatibility(farm).catch((error: unknown) => console.error("deciding which steps are NOT_COMPATIBLE failed at start", error));
  const loop = new FarmLoop(farm, undefined, replication.leadership);
  loop.start();
  holder[KEY] = { farm, loop, replication };
  return holder[KEY];
}

export function getFarm(): Farm {
  return farmRuntime().farm;
}

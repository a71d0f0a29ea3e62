/**
 * The one farm of a server process: opened on first use from the environment settings (the web
 * server `loom serve` starts, the Next.js route handlers of `next dev`), kept on globalThis so
 * the web server, the Next.js bundle it hosts and development hot reloads all share one
 * database connection and one event emitter, with the background loop started once.
 */
import { databaseFile, openStore } from "../db/connection";
import { serverEnv } from "../env";
import { refreshCompatibility } from "./compatibility";
import { createFarm, type Farm } from "../context/farm";
import { FarmLoop } from "./farm-loop";
import { settingsFromEnv } from "../context/farm-settings";

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
  const farm = createFarm(store, { settings: settingsFromEnv(env, env.LOOM_DATA_DIR) });
  // Not awaited (callers want the farm at once), yet first in line: SQLite runs units in the order
  // they start, so the requests' units see the steps' compatibility decided.
  refreshCompatibility(farm).catch((error: unknown) => console.error("deciding which steps are NOT_COMPATIBLE failed at start", error));
  const loop = new FarmLoop(farm);
  loop.start();
  holder[KEY] = { farm, loop };
  return holder[KEY];
}

export function getFarm(): Farm {
  return farmRuntime().farm;
}

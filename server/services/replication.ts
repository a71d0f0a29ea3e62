/**
 * What a server process needs to share a PostgreSQL database with other replicas: farm events
 * sent with each unit's commit and heard from the others (LISTEN/NOTIFY, postgres-notifier.ts),
 * and the leadership that decides which replica runs the once-per-farm work (leader.ts). On
 * SQLite there is one server process per database: no events to share, and it always leads.
 */
import type { Farm } from "../context/farm";
import { PostgresLeadership, SoloLeadership, type Leadership } from "../store/leader";
import { newEventOrigin, PostgresEventListener, PostgresEventRelay } from "../store/postgres-notifier";

export interface Replication {
  leadership: Leadership;
  stop(): Promise<void>;
}

export interface ReplicationOptions {
  /** How often leadership is asked for and kept alive (1 s by default: a dead leader is replaced within a few seconds). */
  leaderIntervalMs?: number;
  log?: (message: string) => void;
}

/** One server process per database (SQLite): nothing shared, and it always leads. */
export const SOLO_REPLICATION: Replication = Object.freeze({ leadership: new SoloLeadership(), stop: async () => {} });

/** Starts sharing `farm`'s events and asking for leadership when its store is the PostgreSQL database at `databaseUrl`. */
export async function startReplication(farm: Farm, databaseUrl: string | undefined, options: ReplicationOptions = {}): Promise<Replication> {
  if (farm.store.engine === "sqlite" || databaseUrl === undefined) return SOLO_REPLICATION;
  const log = options.log ?? ((message: string) => console.log(message));
  const origin = newEventOrigin();
  const listener = new PostgresEventListener({ connection: databaseUrl, bus: farm.events, origin, log });
  await listener.start();
  farm.events.relayTo(new PostgresEventRelay(farm.store, origin));
  const leadership = new PostgresLeadership({
    connection: databaseUrl,
    intervalMs: options.leaderIntervalMs,
    log,
    onChange: (leading, epoch) => log(leading ? `this server leads the farm now (epoch ${epoch}): it runs the worker sweeps` : "this server no longer leads the farm"),
  });
  try {
    await leadership.start();
  } catch (error) {
    farm.events.relayTo(null);
    await listener.stop();
    throw error;
  }
  return {
    leadership,
    stop: async () => {
      await leadership.stop();
      farm.events.relayTo(null);
      await listener.stop();
    },
  };
}

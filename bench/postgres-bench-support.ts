/**
 * What the farm benchmarks need of PostgreSQL: a fresh database on the test server (freshTestDatabase:
 * LOOM_TEST_DATABASE_URL, else 127.0.0.1:5432) dropped when the run ends, however it ends; farm
 * servers as replicas on it, with the simulated workers split between them; and the raw claim
 * ceiling, node-postgres alone, to compare the farm's claims with.
 */
import pg from "pg";
import { createFarm, type FarmSettings } from "../server/context/farm";
import { freshTestDatabase } from "../server/db/postgres-test-support";
import { openAsyncStore } from "../server/store/engine/open-store";
import { benchFarmOn, benchIdentity, endpointLatencies, timed, type BenchFarm, type BenchIdentity, type Transport } from "./farm-bench-support";

/**
 * Runs `work` on a fresh database of the test server and drops the database afterwards: when
 * `work` resolves or throws, and on Ctrl-C or SIGTERM (dropped WITH FORCE, so the farm's open
 * connections do not keep it). A run killed harder leaves it for the next creation's sweep.
 */
export async function withFreshDatabase<T>(prefix: string, work: (url: string) => Promise<T>): Promise<T> {
  const database = await freshTestDatabase(prefix);
  let dropped: Promise<void> | null = null;
  const drop = () => (dropped ??= database.drop());
  const onSignal = (signal: NodeJS.Signals) => {
    console.error(`${signal}: dropping the bench database ${database.name}`);
    drop().then(
      () => process.exit(130),
      (error: unknown) => {
        console.error(`dropping ${database.name} failed`, error);
        process.exit(130);
      },
    );
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  try {
    return await work(database.url);
  } finally {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
    await drop();
  }
}

/** The steps in dispatch order, as the SQLite ceiling takes them. */
const STEPS = "SELECT s.id FROM steps s JOIN jobs j ON j.id = s.job_id ORDER BY j.priority DESC, j.seq, s.step_index";
/** The farm's claim (server/store/claims.ts) reduced to one row: the partial index tasks_ready serves it. */
const NEXT = "SELECT id FROM tasks WHERE step_id = $1 AND status = 'READY' ORDER BY task_index LIMIT 1 FOR UPDATE SKIP LOCKED";
const CLAIM = "UPDATE tasks SET status = 'ASSIGNED', worker_id = $2, session_id = $3 WHERE id = $1";

/**
 * Raw single-row claims over every READY task of the database at `url`, in dispatch order, by
 * `connections` loops at once, each on a node-postgres connection of its own (prepared
 * statements): BEGIN; SELECT … FOR UPDATE SKIP LOCKED; UPDATE it to ASSIGNED; COMMIT. A loop
 * moves to the next step when its SELECT finds no row (the others hold or took the rest). Returns
 * the combined claims/s. The tables are ANALYZEd first (a fresh database's statistics are
 * otherwise whatever autovacuum got to); afterwards every task is put back to READY and the table
 * vacuumed, so the farm starts on the tasks as they were, without the ceiling's dead rows (as the
 * SQLite ceiling checkpoints its WAL away).
 */
export async function postgresClaimCeiling(url: string, tasks: number, connections = 1): Promise<number> {
  const clients = Array.from({ length: connections }, () => new pg.Client({ connectionString: url }));
  try {
    await Promise.all(clients.map((client) => client.connect()));
    const admin = clients[0]!;
    await admin.query("ANALYZE");
    const { rows: steps } = await admin.query<{ id: string }>(STEPS);
    const started = performance.now();
    const claimed = await Promise.all(clients.map((client, i) => claimEvery(client, steps, `worker-ceiling-${i + 1}`)));
    const seconds = (performance.now() - started) / 1000;
    const claims = claimed.reduce((sum, n) => sum + n, 0);
    if (claims !== tasks) throw new Error(`the ceiling loops claimed ${claims} tasks, expected ${tasks}`);
    await admin.query("UPDATE tasks SET status = 'READY', worker_id = NULL, session_id = NULL WHERE status = 'ASSIGNED'");
    await admin.query("VACUUM ANALYZE tasks");
    return claims / seconds;
  } finally {
    await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
  }
}

async function claimEvery(client: pg.Client, steps: ReadonlyArray<{ id: string }>, workerId: string): Promise<number> {
  let claims = 0;
  for (const step of steps) {
    for (;;) {
      await client.query("BEGIN");
      try {
        const { rows } = await client.query<{ id: string }>({ name: "ceiling-next", text: NEXT, values: [step.id] });
        const task = rows[0];
        if (task) await client.query({ name: "ceiling-claim", text: CLAIM, values: [task.id, workerId, "session-ceiling"] });
        await client.query("COMMIT");
        if (!task) break;
        claims++;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => undefined);
        throw error;
      }
    }
  }
  return claims;
}

/**
 * `replicas` farm servers on the PostgreSQL database at `url`, each with its own store (opened by
 * openAsyncStore, which migrates under an advisory lock), farm, and (once served) HTTP server,
 * sweep loop and replication (shared events, leadership: startReplication, as `loom serve`
 * starts it), sharing the first one's pool and tokens. Closed in reverse order by the caller.
 */
export async function openPostgresBenchFarms(url: string, replicas: number, settings: Partial<FarmSettings> = {}): Promise<BenchFarm[]> {
  const farms: BenchFarm[] = [];
  try {
    let identity: BenchIdentity | null = null;
    for (let i = 0; i < replicas; i++) {
      const store = await openAsyncStore(url);
      const farm = createFarm(store, { settings });
      try {
        identity ??= await benchIdentity(farm);
      } catch (error) {
        await store.close();
        throw error;
      }
      farms.push(benchFarmOn(store, farm, url, identity, url));
    }
    return farms;
  } catch (error) {
    for (const bench of farms.reverse()) await bench.close();
    throw error;
  }
}

/**
 * Several transports (one per replica) as one: each registration goes to the next one in turn,
 * so the simulated workers split evenly between them, and each worker's calls then go where it
 * registered. Latency is timed here, over all of them.
 */
export function splitTransport(transports: readonly Transport[]): Transport {
  if (transports.length === 1) return transports[0]!;
  const latency = endpointLatencies();
  const byCredential = new Map<string, Transport>();
  let next = 0;
  const of = (credential: string): Transport => {
    const found = byCredential.get(credential);
    if (!found) throw new Error("a credential no registration answered with");
    return found;
  };
  return {
    kind: transports[0]!.kind,
    latency,
    register: (r) =>
      timed(latency.register, async () => {
        const transport = transports[next++ % transports.length]!;
        const registered = await transport.register(r);
        byCredential.set(registered.credential, transport);
        return registered;
      }),
    sync: (credential, r) => timed(latency.sync, () => of(credential).sync(credential, r)),
    logs: (credential, r) => timed(latency.logs, () => of(credential).logs(credential, r)),
  };
}

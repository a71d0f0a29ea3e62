/**
 * `loom serve`'s own workers across a restart (issue 11). After a hard stop (a double Ctrl-C,
 * SIGKILL, a crash) the local workers' rows still say they are connected, and their Sessions
 * RUNNING: for the worker timeout (75 s) the restarted server would refuse its own new agents
 * ("a worker named 'local-1' is connected…") and show tasks running that nothing runs.
 *
 * `loom serve` knows better: it chose each local agent's instance id and recorded it in its data
 * folder (server/cli/local-workers-file.ts), so at the next start, once the server that started
 * them is gone, the rows still holding exactly those ids belong to processes that no longer run.
 * Those are declared lost at once, before anything listens: their tasks go back to the queue and
 * the new agents enroll without waiting. A row any other agent enrolled since (another instance
 * id), a worker elsewhere with the same name, or one that stopped cleanly is left alone.
 */
import { workerLifecycleRepository } from "../store/worker-lifecycle";
import { audit, SYSTEM_ACTOR } from "./audit";
import type { Farm } from "../context/farm";
import { loseWorker } from "./sweep-workers";

export interface LocalWorker {
  name: string;
  instanceId: string;
}

/** Declares lost the local pool's workers that are still those agents; returns their names. */
export async function releaseLocalWorkers(farm: Farm, poolId: string, workers: readonly LocalWorker[]): Promise<string[]> {
  const now = farm.now();
  return farm.store.transaction(async (tx) => {
    const released: string[] = [];
    for (const worker of workers) {
      const row = await workerLifecycleRepository.liveInstance(tx, poolId, worker.name, worker.instanceId);
      if (!row) continue;
      await loseWorker(tx, farm, row.id, now);
      await audit(tx, farm, SYSTEM_ACTOR, { action: "worker.release", target: { kind: "worker", id: row.id }, detail: `${worker.name}: its agent ended with the previous loom serve` });
      released.push(worker.name);
    }
    return released;
  });
}

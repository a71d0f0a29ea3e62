/**
 * The scheduler's background duties (CONVENTIONS rule 7: a class with start/stop, sleeping on an
 * abortable delay): first delete the jobs a stopped server left half created, then declare silent
 * workers lost and requeue their work; meanwhile WAL checkpoints run on a thread of their own
 * (server/db/checkpointer.ts), and the template check threads are started (server/checks).
 * Dispatch itself happens in each worker's sync, so nothing here sits on the dispatch path.
 *
 * With several replicas on one PostgreSQL database, the sweeps are once-per-farm work: only the
 * replica that leads (server/store/leader.ts) runs them, and it looks for interrupted job
 * creations on every round (a replica that died mid-creation leaves its marker behind).
 */
import { checkPool } from "../checks/check-pool";
import { Checkpointer } from "../db/checkpointer";
import type { Farm } from "../context/farm";
import { pause } from "./pause";
import { removeInterruptedJobs } from "./persist-job";
import { isStoreFull, storeHealth } from "./store-health";
import { sweepWorkers } from "./sweep-workers";
import { NotLeaderError, SoloLeadership, type LeaderFence, type Leadership } from "../store/leader";

export class FarmLoop {
  private controller: AbortController | null = null;
  private running: Promise<void> | null = null;
  private checkpointer: Checkpointer | null = null;

  constructor(
    private readonly farm: Farm,
    private readonly intervalMs = 2_000,
    private readonly leadership: Leadership = new SoloLeadership(),
  ) {}

  start(): void {
    if (this.controller) return;
    const controller = new AbortController();
    this.controller = controller;
    this.checkpointer = new Checkpointer(this.farm.store);
    this.checkpointer.start().catch((error: unknown) => console.error("the WAL checkpoint thread did not start; checkpoints stay automatic", error));
    try {
      // The template check threads start with the server, so the first preview does not wait for them.
      checkPool();
    } catch (error) {
      console.error("the template check threads did not start", error);
    }
    this.running = this.loop(controller.signal);
  }

  async stop(): Promise<void> {
    this.controller?.abort();
    await this.running;
    await this.checkpointer?.stop();
    this.checkpointer = null;
    this.controller = null;
    this.running = null;
  }

  private async loop(signal: AbortSignal): Promise<void> {
    let removedInterrupted = false;
    while (!signal.aborted) {
      if (!this.leadership.isLeader) {
        await pause(this.intervalMs, signal);
        continue;
      }
      // Every unit of this work is fenced: a replica that lost the lead without knowing it yet
      // (frozen, its leader connection cut) has its unit rolled back and stops here.
      const fence: LeaderFence = (tx) => this.leadership.fence(tx);
      // SQLite: once, at start (another process's marker is a stopped one's); PostgreSQL: every round.
      if (!removedInterrupted || this.farm.store.engine === "postgres") {
        try {
          await removeInterruptedJobs(this.farm, fence);
          removedInterrupted = true;
        } catch (error) {
          if (!(error instanceof NotLeaderError)) console.error("removing interrupted job creations failed", error);
        }
      }
      try {
        await sweepWorkers(this.farm, fence);
      } catch (error) {
        if (error instanceof NotLeaderError) {
          // Not leading any more: the loop waits to lead again.
        } else if (isStoreFull(error)) storeHealth(this.farm.store).failed(error);
        else console.error("scheduler sweep failed", error);
      }
      await pause(this.intervalMs, signal);
    }
  }
}

/**
 * The scheduler's background duties (CONVENTIONS rule 7: a class with start/stop, sleeping on an
 * abortable delay): declare silent workers lost and requeue their work. Dispatch itself happens
 * in each worker's sync, so nothing here sits on the dispatch path.
 */
import type { Farm } from "./farm";
import { pause } from "./pause";
import { sweepWorkers } from "./sweep-workers";

export class FarmLoop {
  private controller: AbortController | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly farm: Farm,
    private readonly intervalMs = 2_000,
  ) {}

  start(): void {
    if (this.controller) return;
    const controller = new AbortController();
    this.controller = controller;
    this.running = this.loop(controller.signal);
  }

  async stop(): Promise<void> {
    this.controller?.abort();
    await this.running;
    this.controller = null;
    this.running = null;
  }

  private async loop(signal: AbortSignal): Promise<void> {
    while (!signal.aborted) {
      try {
        sweepWorkers(this.farm);
      } catch (error) {
        console.error("scheduler sweep failed", error);
      }
      await pause(this.intervalMs, signal);
    }
  }
}

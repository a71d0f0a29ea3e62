/**
 * Action updates waiting for the next sync, in the order they happened. Progress and status
 * messages are coalesced into the action's RUNNING update still waiting here (the latest wins),
 * so a task printing progress a thousand times a second costs one update per sync.
 */
import type { ActionUpdate } from "../../lib/farm/protocol";
import { RecentIds } from "./recent-ids";

/** Protocol limit (lib/farm/protocol.ts) on statusMessage and failMessage. */
const MAX_MESSAGE_CHARS = 10_000;

export class UpdateQueue {
  private queue: ActionUpdate[] = [];
  /** The RUNNING update of each action that is still in the queue. */
  private running = new Map<string, ActionUpdate>();
  /** startedAt of actions that have not ended, repeated on progress updates made after a sync. */
  private startedAt = new Map<string, number>();
  /** Recently ended actions, so an assignment the server sends twice does not run twice. */
  private readonly endedIds = new RecentIds(10_000);

  started(actionId: string, time: number): void {
    this.startedAt.set(actionId, time);
    this.pushRunning({ actionId, status: "RUNNING", startedAt: time });
  }

  progress(actionId: string, change: { progress?: number; statusMessage?: string }): void {
    let update = this.running.get(actionId);
    if (!update) {
      const startedAt = this.startedAt.get(actionId);
      update = { actionId, status: "RUNNING", ...(startedAt !== undefined ? { startedAt } : {}) };
      this.pushRunning(update);
    }
    if (change.progress !== undefined) update.progress = Math.min(100, Math.max(0, change.progress));
    if (change.statusMessage !== undefined) update.statusMessage = clip(change.statusMessage);
  }

  ended(update: ActionUpdate): void {
    this.endedIds.add(update.actionId);
    this.running.delete(update.actionId);
    const startedAt = this.startedAt.get(update.actionId);
    this.startedAt.delete(update.actionId);
    // The Session's own start time when the action started at all.
    this.queue.push({
      ...update,
      ...(startedAt !== undefined ? { startedAt } : {}),
      ...(update.failMessage ? { failMessage: clip(update.failMessage) } : {}),
    });
  }

  hasEnded(actionId: string): boolean {
    return this.endedIds.has(actionId);
  }

  /** Everything waiting, oldest first; the queue is empty afterwards. */
  take(): ActionUpdate[] {
    const out = this.queue;
    this.queue = [];
    this.running.clear();
    return out;
  }

  get size(): number {
    return this.queue.length;
  }

  /** Drops what waits (a fenced lease); the memory of ended actions stays. */
  clear(): void {
    this.queue = [];
    this.running.clear();
    this.startedAt.clear();
  }

  private pushRunning(update: ActionUpdate): void {
    this.queue.push(update);
    this.running.set(update.actionId, update);
  }
}

function clip(text: string): string {
  return text.length > MAX_MESSAGE_CHARS ? `${text.slice(0, MAX_MESSAGE_CHARS - 1)}…` : text;
}

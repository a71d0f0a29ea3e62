/**
 * Reads an action's output streams into lines until they end — or, once the main process has
 * exited, until they have been quiet for a moment. A process the action left running (a daemon
 * started by an environment's onEnter, a forgotten `&`) may hold the output open for ever; the
 * action must still end when its main process does.
 */
import type { Readable } from "node:stream";
import { LineSplitter } from "./line-splitter";

/** After the main process exits: stop after this long without output, and after this long at most. */
const DRAIN_IDLE_MS = 250;
const DRAIN_CAP_MS = 2_000;

export type DrainResult = "ended" | "abandoned";

export class OutputReader {
  private readonly splitters: LineSplitter[] = [];
  private openStreams: number;
  private draining: { resolve: (how: DrainResult) => void; idle?: NodeJS.Timeout; cap?: NodeJS.Timeout } | null = null;

  constructor(
    private readonly streams: readonly Readable[],
    onLine: (line: string) => void,
  ) {
    this.openStreams = streams.length;
    for (const stream of streams) {
      const splitter = new LineSplitter(onLine);
      this.splitters.push(splitter);
      let ended = false;
      const onEnd = () => {
        if (ended) return;
        ended = true;
        splitter.end();
        this.openStreams -= 1;
        if (this.openStreams === 0) this.settle("ended");
      };
      stream.on("data", (chunk: Buffer) => {
        splitter.push(chunk);
        if (this.draining) this.armIdle();
      });
      stream.once("end", onEnd);
      stream.once("error", onEnd);
      stream.once("close", onEnd);
    }
  }

  /** Call once the main process has exited. "abandoned" means reading was stopped early. */
  drain(): Promise<DrainResult> {
    if (this.openStreams === 0) return Promise.resolve("ended");
    return new Promise((resolve) => {
      this.draining = { resolve };
      this.armIdle();
      this.draining.cap = setTimeout(() => this.settle("abandoned"), DRAIN_CAP_MS);
    });
  }

  /** Stops reading. Lines already read, a last partial one included, are delivered first. */
  close(): void {
    for (const stream of this.streams) stream.destroy();
    for (const splitter of this.splitters) splitter.end();
    this.settle("abandoned");
  }

  private armIdle(): void {
    if (!this.draining) return;
    clearTimeout(this.draining.idle);
    this.draining.idle = setTimeout(() => this.settle("abandoned"), DRAIN_IDLE_MS);
  }

  private settle(how: DrainResult): void {
    const draining = this.draining;
    if (!draining) return;
    this.draining = null;
    clearTimeout(draining.idle);
    clearTimeout(draining.cap);
    if (how === "abandoned") this.close();
    draining.resolve(how);
  }
}

/**
 * The log viewer's memory: lines in fixed-size chunks (appending 100,000 lines never copies an
 * array that big), and a batcher that hands lines to the view once per animation frame, so a
 * burst of 10,000 lines a second costs one render per frame, never one per line.
 */

export interface LogLine {
  id: number;
  actionId: string | null;
  time: number;
  line: string;
}

const CHUNK = 4096;

export class LineStore {
  private readonly chunks: LogLine[][] = [];
  private count = 0;
  private last = 0;

  get length(): number {
    return this.count;
  }

  /** The id of the newest line (0 when empty). */
  get lastId(): number {
    return this.last;
  }

  /**
   * Appends lines in id order; a line whose id is not above the last one is dropped (a
   * resumed subscription may repeat what was already received). Returns how many were added.
   */
  append(lines: readonly LogLine[]): number {
    let added = 0;
    for (const line of lines) {
      if (line.id <= this.last) continue;
      let chunk = this.chunks[this.chunks.length - 1];
      if (!chunk || chunk.length === CHUNK) {
        chunk = [];
        this.chunks.push(chunk);
      }
      chunk.push(line);
      this.last = line.id;
      this.count++;
      added++;
    }
    return added;
  }

  at(index: number): LogLine | undefined {
    if (index < 0 || index >= this.count) return undefined;
    return this.chunks[Math.floor(index / CHUNK)]?.[index % CHUNK];
  }
}

/** Requests a callback (on the next animation frame, after a delay…); returns its cancel. */
export type Scheduler = (callback: () => void) => () => void;

export const animationFrame: Scheduler = (callback) => {
  const handle = requestAnimationFrame(callback);
  return () => cancelAnimationFrame(handle);
};

export const afterMs =
  (ms: number): Scheduler =>
  (callback) => {
    const handle = setTimeout(callback, ms);
    return () => clearTimeout(handle);
  };

/** Collects items and flushes them together at most once per scheduled tick. */
export class Batcher<T> {
  private pending: T[] = [];
  private cancel: (() => void) | null = null;

  constructor(
    private readonly flush: (items: T[]) => void,
    private readonly schedule: Scheduler,
  ) {}

  push(item: T): void {
    this.pending.push(item);
    this.cancel ??= this.schedule(() => this.run());
  }

  private run(): void {
    this.cancel = null;
    if (this.pending.length === 0) return;
    const items = this.pending;
    this.pending = [];
    this.flush(items);
  }

  dispose(): void {
    this.cancel?.();
    this.cancel = null;
    this.pending = [];
  }
}

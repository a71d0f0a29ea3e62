/**
 * When the farm's store cannot write (issue 11: the disk is full), the server says so and keeps
 * its promises instead of failing quietly:
 *
 * - a worker's upload or report that could not be stored is refused with 503 and a reason
 *   (`storeUnavailable`); the agent keeps what it holds and sends it again, and nothing it was
 *   told is stored was lost (the store rolled the whole transaction back);
 * - workers are not judged silent while the store itself failed (a heartbeat the server could not
 *   write is not the worker's fault): the sweep waits a whole worker timeout after the last
 *   failure before it may declare anyone lost, so no finished task runs again;
 * - one line on stderr when writes start failing and one when they work again, not a stack per
 *   request.
 */
import type { Store } from "../db/connection";
import { perDatabase } from "../db/per-database";
import { AppError } from "../context/errors";

/**
 * SQLite's "database or disk is full", PostgreSQL's disk_full (SQLSTATE 53100: the server could
 * not extend a file), and the file system's own words for it. Not PostgreSQL's other class 53
 * codes: out of memory, too many connections and configuration limits are not a full store.
 */
const FULL_CODES: ReadonlySet<string> = new Set(["SQLITE_FULL", "53100", "ENOSPC", "EDQUOT"]);

/** Whether an error means the store could not write for lack of space. */
export function isStoreFull(error: unknown): boolean {
  for (let cause: unknown = error, depth = 0; cause instanceof Error && depth < 4; cause = cause.cause, depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === "string" && FULL_CODES.has(code)) return true;
  }
  return false;
}

const RECOVERY_QUIET_MS = 3_000;

export class StoreHealth {
  /** When the current run of failures started (null while writes work). */
  private failingSince: number | null = null;
  private lastFailureAt: number | null = null;
  /** When writes last worked again after failing: workers get a whole timeout from then to report. */
  private recoveredAt: number | null = null;
  private refusedSince = 0;

  constructor(
    private readonly report: (line: string) => void = (line) => console.error(line),
    private readonly clock: () => number = Date.now,
  ) {}

  /** Records a write that failed for lack of space; returns the refusal to answer with. */
  failed(error: unknown): AppError {
    const now = this.clock();
    this.lastFailureAt = now;
    this.refusedSince++;
    if (this.failingSince === null) {
      this.failingSince = now;
      const detail = error instanceof Error ? error.message : String(error);
      this.report(`loom: the farm's store cannot write (${detail}): uploads and reports are refused (503) and kept by the workers until space is freed`);
    }
    return storeUnavailable();
  }

  /**
   * A write went through: if writes were failing and none failed for a few seconds, they work
   * again. (On a nearly full disk a small write may fit between refused big ones: that is not
   * yet a recovery worth a line in the log.)
   */
  succeeded(): void {
    if (this.failingSince === null || this.clock() - (this.lastFailureAt ?? 0) < RECOVERY_QUIET_MS) return;
    const seconds = Math.round((this.clock() - this.failingSince) / 1000);
    this.report(`loom: the farm's store writes again after ${seconds} s; ${this.refusedSince} requests were refused meanwhile and are being sent again`);
    this.failingSince = null;
    this.refusedSince = 0;
    this.recoveredAt = this.clock();
  }

  /**
   * No write failed in the last `windowMs`, nor did writes come back within it (the sweep may
   * judge workers again: each has had a whole window to report since the store took writes).
   */
  quietFor(windowMs: number): boolean {
    const since = Math.max(this.lastFailureAt ?? -Infinity, this.recoveredAt ?? -Infinity);
    return this.clock() - since >= windowMs;
  }

  get failing(): boolean {
    return this.failingSince !== null;
  }
}

export function storeUnavailable(): AppError {
  return new AppError("UNAVAILABLE", "the farm's store is full (database or disk is full): nothing of this request was stored; send it again once space is freed");
}

/** One per store: every request and the sweep of a farm share what they saw. */
export const storeHealth = perDatabase((_store: Store) => new StoreHealth());

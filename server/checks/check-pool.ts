/**
 * A small pool of worker threads for template checks, previews and job creation (one per core
 * but one, at least one; started on first use and reused). Each request has a wall-clock budget:
 * past it the thread is terminated and a fresh one takes its place, so a template that would
 * take a minute costs one thread for the budget and never the server's event loop. One owner
 * (a user) holds at most `perOwner` threads at once and has at most `queuedPerOwner` requests
 * waiting; more are refused, so one user cannot occupy every thread.
 */
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { AppError } from "../context/errors";
import { threadEntryFile } from "../thread-entry";
import type { CheckAnswer, CheckRequest, FromThread } from "./check-protocol";

interface Pending {
  id: number;
  settle: (answer: CheckAnswer) => void;
}

interface Slot {
  worker: Worker;
  ready: Promise<boolean>;
  pending: Pending | null;
  leased: boolean;
  /** Why the thread could not start; its requests fail with it. */
  startError: string | null;
}

interface Waiter {
  owner: string;
  grant: (slot: Slot) => void;
  refuse: (error: Error) => void;
}

export interface CheckPoolOptions {
  size: number;
  perOwner: number;
  queuedPerOwner: number;
  entry: string;
}

/** Threads get a heap of their own, so a check that allocates without bound ends only its thread. */
const THREAD_HEAP_MB = 1024;

/** A thread lent to one caller: requests go one at a time; release() gives it back. */
export class CheckLease {
  constructor(
    private readonly pool: CheckPool,
    private readonly slot: Slot,
    readonly owner: string,
  ) {}

  request(request: CheckRequest, budgetMs: number): Promise<CheckAnswer> {
    return this.pool.send(this.slot, request, budgetMs);
  }

  release(): void {
    this.pool.giveBack(this.slot, this.owner);
  }
}

export class CheckPool {
  private readonly slots: Slot[] = [];
  private readonly waiting: Waiter[] = [];
  private readonly holding = new Map<string, number>();
  /** Every request not yet answered, started or not: closing answers them all. */
  private readonly unanswered = new Set<(answer: CheckAnswer) => void>();
  private nextId = 0;
  private closed = false;

  constructor(private readonly options: CheckPoolOptions) {
    for (let i = 0; i < options.size; i++) this.slots.push(this.newSlot());
  }

  get size(): number {
    return this.slots.length;
  }

  /** A thread for `owner`, once one is free and the owner holds fewer than perOwner; refused past perOwner + queuedPerOwner. */
  async lease(owner: string): Promise<CheckLease> {
    if (this.closed) throw stopping();
    const mine = (this.holding.get(owner) ?? 0) + this.waiting.filter((w) => w.owner === owner).length;
    if (mine >= this.options.perOwner + this.options.queuedPerOwner) {
      throw new AppError("TOO_MANY_REQUESTS", `you already have ${mine} template checks running or waiting; try again when one of them has finished`);
    }
    const slot = await new Promise<Slot>((grant, refuse) => {
      this.waiting.push({ owner, grant, refuse });
      this.pump();
    });
    return new CheckLease(this, slot, owner);
  }

  /**
   * Terminates every thread for good (a stopping server, tests, benchmarks): requests in flight
   * answer "stopped" at once and waiting leases are refused, so nothing holds the process up
   * for the rest of a check's budget.
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiting.splice(0)) waiter.refuse(stopping());
    for (const settle of [...this.unanswered]) settle({ kind: "stopped", reason: "closed", message: "the server is stopping" });
    await Promise.all(
      this.slots.map((slot) => {
        slot.worker.removeAllListeners();
        slot.worker.on("error", () => undefined);
        return slot.worker.terminate();
      }),
    );
  }

  send(slot: Slot, request: CheckRequest, budgetMs: number): Promise<CheckAnswer> {
    if (this.closed) return Promise.resolve({ kind: "stopped", reason: "closed", message: "the server is stopping" });
    return new Promise<CheckAnswer>((settle) => {
      const id = ++this.nextId;
      let timer: NodeJS.Timeout | null = null;
      const done = (answer: CheckAnswer) => {
        if (timer) clearTimeout(timer);
        if (slot.pending?.id === id) slot.pending = null;
        this.unanswered.delete(done);
        settle(answer);
      };
      this.unanswered.add(done);
      // A thread that could not start gets another try with each request.
      if (slot.startError !== null) this.start(slot);
      void slot.ready.then((started) => {
        if (!this.unanswered.has(done)) return;
        if (!started) {
          console.error("a template check thread could not start:", slot.startError);
          return done({ kind: "failed", message: "the template checker could not start (the server's log has the details)" });
        }
        slot.pending = { id, settle: done };
        // The budget counts from the moment the thread has the request, not the thread's start-up.
        timer = setTimeout(() => {
          done({ kind: "stopped", reason: "timeout", message: `over ${budgetMs} ms` });
          this.replace(slot);
        }, budgetMs);
        slot.worker.postMessage({ id, request });
      });
    });
  }

  giveBack(slot: Slot, owner: string): void {
    if (!slot.leased) return;
    // A request still out would answer the next holder: that thread is replaced instead.
    if (slot.pending) this.replace(slot);
    slot.leased = false;
    const held = (this.holding.get(owner) ?? 1) - 1;
    if (held > 0) this.holding.set(owner, held);
    else this.holding.delete(owner);
    slot.worker.unref();
    this.pump();
  }

  private pump(): void {
    for (const slot of this.slots) {
      if (slot.leased) continue;
      const index = this.waiting.findIndex((w) => (this.holding.get(w.owner) ?? 0) < this.options.perOwner);
      if (index < 0) return;
      const [waiter] = this.waiting.splice(index, 1);
      slot.leased = true;
      // A lent thread keeps the process alive (its caller is waiting for it); an idle one never does.
      slot.worker.ref();
      this.holding.set(waiter!.owner, (this.holding.get(waiter!.owner) ?? 0) + 1);
      waiter!.grant(slot);
    }
  }

  /** Terminates the slot's thread (its request answers "stopped") and starts a fresh one in its place. */
  private replace(slot: Slot): void {
    if (this.closed) return;
    const old = slot.worker;
    old.removeAllListeners();
    old.on("error", () => undefined);
    void old.terminate();
    const pending = slot.pending;
    this.start(slot);
    pending?.settle({ kind: "stopped", reason: "timeout", message: "terminated" });
  }

  private newSlot(): Slot {
    // start() gives it its worker and `ready`.
    const slot = { pending: null, leased: false, startError: null } as Partial<Slot> as Slot;
    this.start(slot);
    return slot;
  }

  /** A fresh thread in the slot; `ready` says whether it started. */
  private start(slot: Slot): void {
    const worker = new Worker(this.options.entry, { execArgv: [], resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB } });
    slot.worker = worker;
    slot.pending = null;
    slot.startError = null;
    let started = false;
    slot.ready = new Promise<boolean>((ready) => {
      worker.on("message", (message: FromThread) => {
        if ("ready" in message) {
          started = true;
          return ready(true);
        }
        if (slot.pending?.id === message.id) slot.pending.settle(message.answer);
      });
      const died = (why: string) => {
        if (slot.worker !== worker || this.closed) return;
        worker.removeAllListeners();
        ready(false);
        const pending = slot.pending;
        // A thread that never started is retried by the next request (never in a loop); one that
        // died at work (out of memory) is replaced at once.
        if (started) this.start(slot);
        else slot.startError = why;
        pending?.settle({ kind: "stopped", reason: "crashed", message: why });
      };
      worker.on("error", (error) => died(error.message));
      worker.on("exit", (code) => died(`the thread exited with code ${code}`));
    });
    // After the listeners: attaching a "message" listener refs the worker again.
    if (slot.leased) worker.ref();
    else worker.unref();
  }
}

/** check-entry.mjs, from the sources or inside the Next.js bundle. */
export function checkEntryFile(): string {
  return threadEntryFile(import.meta.url, "check-entry.mjs", join("server", "checks"));
}

function stopping(): AppError {
  return new AppError("INTERNAL", "the server is stopping; try again once it is back");
}

const KEY = Symbol.for("loom.check-pool");
type Holder = { [KEY]?: CheckPool };

/** The process's pool (shared by the web server and the Next.js bundle it hosts), started on first use. */
export function checkPool(): CheckPool {
  const holder = globalThis as Holder;
  if (!holder[KEY]) {
    const size = Math.max(1, availableParallelism() - 1);
    holder[KEY] = new CheckPool({ size, perOwner: Math.max(1, Math.min(2, size - 1)), queuedPerOwner: 4, entry: checkEntryFile() });
  }
  return holder[KEY];
}

/** Closes the process's pool, if it was started (a stopping server); a later checkPool() starts a new one. */
export async function closeCheckPool(): Promise<void> {
  const holder = globalThis as Holder;
  const pool = holder[KEY];
  if (!pool) return;
  delete holder[KEY];
  await pool.close();
}

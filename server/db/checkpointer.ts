/**
 * WAL checkpoints on a thread of their own. SQLite's automatic checkpoint runs inside the commit
 * that crosses 1,000 WAL pages, on the connection that commits: during a big chunked change (a
 * 1,000,000-task job written or canceled) that commit held the server's event loop for 100–300
 * ms. While a checkpointer runs, the server's connection does not checkpoint (wal_autocheckpoint
 * = 0) and a second connection on a worker thread does, every `intervalMs`; stopping it (or its
 * thread dying) gives the automatic checkpoint back. In-memory databases have no WAL, and
 * PostgreSQL checkpoints by itself: nothing runs.
 */
import { join } from "node:path";
import { Worker } from "node:worker_threads";
import { threadEntryFile } from "../thread-entry";
import { SqliteStore, type Store } from "./connection";

const AUTOMATIC_PAGES = 1000;

export class Checkpointer {
  private worker: Worker | null = null;

  constructor(
    private readonly store: Store,
    private readonly intervalMs = 200,
  ) {}

  /** Starts checkpointing on the thread (resolves once it has its connection); false for an in-memory database or PostgreSQL. */
  async start(): Promise<boolean> {
    if (!(this.store instanceof SqliteStore)) return false;
    // A connection setting, not a statement of the farm's: it goes to the handle, outside any unit.
    const { sqlite } = this.store;
    if (this.worker || sqlite.memory) return this.worker !== null;
    const worker = new Worker(threadEntryFile(import.meta.url, "checkpoint-thread.mjs", join("server", "db")), { workerData: { file: sqlite.name, intervalMs: this.intervalMs }, execArgv: [] });
    this.worker = worker;
    const giveBack = () => {
      if (this.worker !== worker) return;
      this.worker = null;
      if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${AUTOMATIC_PAGES}`);
    };
    worker.on("error", (error) => {
      console.error("the WAL checkpoint thread failed; checkpoints are automatic again", error);
      giveBack();
    });
    worker.on("exit", giveBack);
    const ready = new Promise<boolean>((settle) => {
      worker.once("message", () => settle(true));
      worker.once("exit", () => settle(false));
    });
    // Never what keeps a process alive (after the listeners: attaching one refs the worker again).
    worker.unref();
    if (!(await ready)) return false;
    if (this.worker === worker) sqlite.pragma("wal_autocheckpoint = 0");
    return true;
  }

  async stop(): Promise<void> {
    const worker = this.worker;
    if (!worker) return;
    const exited = new Promise((settle) => worker.once("exit", settle));
    // Kept alive until it has made its last checkpoint and closed its connection.
    worker.ref();
    worker.postMessage("stop");
    await exited;
  }
}

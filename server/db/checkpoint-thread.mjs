// The checkpointer's thread (server/db/checkpointer.ts): its own connection copies the WAL into
// the database file every few hundred milliseconds, so the server's connection never does it in
// the middle of answering a request.
import Database from "better-sqlite3";
import { parentPort, workerData } from "node:worker_threads";

const db = new Database(workerData.file, { fileMustExist: true });
db.pragma("busy_timeout = 1000");
const checkpoint = () => {
  try {
    // PASSIVE copies what it can without waiting for readers or blocking the writer.
    db.pragma("wal_checkpoint(PASSIVE)");
  } catch {
    // busy: the next round catches up
  }
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on("message", (message) => {
  if (message !== "stop") return;
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
parentPort.postMessage("ready");

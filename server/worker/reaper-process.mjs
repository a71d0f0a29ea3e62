// The worker's reaper (see reaper.ts): it learns the process groups of the worker's running
// actions on stdin ("+pgid" / "-pgid" lines) and, when stdin ends — the worker exited, however
// it died — kills the groups still running, so no task outlives its worker. Plain JavaScript run
// by node directly: it starts in a few milliseconds and needs nothing else.
import { createInterface } from "node:readline";

const groups = new Set();
// Only the end of stdin stops it: a terminal's Ctrl-C is for the worker, which then ends stdin.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => undefined);
const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  const pgid = Number(line.slice(1));
  if (!Number.isInteger(pgid) || pgid <= 1) return;
  if (line.startsWith("+")) groups.add(pgid);
  else groups.delete(pgid);
});
lines.on("close", () => {
  for (const pgid of groups) {
    try {
      process.kill(-pgid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  process.exit(0);
});

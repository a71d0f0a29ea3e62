// Next.js calls register() once when the server starts: open the farm (migrations, the default
// pool's token from `loom serve`, the scheduler's background loop) before the first request.
// Started by `loom serve`, the server also stops when `loom serve` is gone (server/parent-watch.ts).
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { openFarmRuntime } = await import("./server/services/farm-runtime");
  const { serverEnv } = await import("./server/env");
  const { exitWithParent } = await import("./server/parent-watch");
  // On PostgreSQL (LOOM_DATABASE_URL) opening is asynchronous: awaited here, before any request.
  await openFarmRuntime();
  const parentPid = serverEnv().LOOM_PARENT_PID;
  if (parentPid) exitWithParent(parentPid, "the web server");
}

// Next.js calls register() once when the server starts: open the farm (migrations, the default
// pool's token from `loom serve`, the scheduler's background loop) before the first request.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { farmRuntime } = await import("./server/services/farm-runtime");
  farmRuntime();
}

/**
 * `loom serve` starts `next start` and the local workers in their own process groups (so a
 * terminal's Ctrl-C reaches only `loom serve`, which stops them in order). If `loom serve` itself
 * dies without stopping them (SIGKILL, a crash), nothing else would: each child it starts watches
 * it (LOOM_PARENT_PID) and stops on its own once it is gone, instead of lingering and holding the
 * port or the workers' names for the next `npm start`.
 */

/** Whether a process with this pid exists (EPERM: it exists, it is just not ours to signal). */
export function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Calls `onGone` once, when process `pid` no longer exists (checked every `intervalMs`); returns the unwatcher. */
export function watchParent(pid: number, onGone: () => void, intervalMs = 1_000): () => void {
  const timer = setInterval(() => {
    if (processExists(pid)) return;
    clearInterval(timer);
    onGone();
  }, intervalMs);
  timer.unref(); // never what keeps a process alive
  return () => clearInterval(timer);
}

/** For a server process `loom serve` started: exit once `loom serve` is gone (nothing else would stop it). */
export function exitWithParent(pid: number, what: string): void {
  watchParent(pid, () => {
    console.error(`loom: loom serve is gone, stopping ${what}`);
    process.exit(0);
  });
}

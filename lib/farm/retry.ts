/**
 * When a failed task may run again (Deadline Cloud and OpenCue wait between attempts; an instant
 * retry of a task that failed on a missing licence or mount fails the same way). The wait doubles
 * with each failed attempt from the job's retryDelaySeconds, up to a cap, so a task that keeps
 * failing stops hammering the farm while a one-off failure is retried soon.
 */

/** However many failures, a retry waits at most this long (Deadline's longest backoff is of this order). */
export const MAX_RETRY_DELAY_SECONDS = 3600;

/** The wait before the retry that follows the `failures`-th failed attempt (1 = the first): base × 2^(failures−1), capped. */
export function retryDelayMs(baseSeconds: number, failures: number): number {
  if (baseSeconds <= 0 || failures <= 0) return 0;
  // Past 2^31 every base (a whole second at least) is over the cap: the exponent stops there.
  return Math.min(baseSeconds * 2 ** Math.min(failures - 1, 31), MAX_RETRY_DELAY_SECONDS) * 1000;
}

/** "retry in 12 s", "retry in 3 min", "retrying" once the time has come (until a worker takes it). */
export function retryText(retryAt: number, now: number): string {
  const s = Math.ceil((retryAt - now) / 1000);
  if (s <= 0) return "Retrying";
  if (s < 120) return `Retry in ${s} s`;
  return `Retry in ${Math.ceil(s / 60)} min`;
}

/**
 * What fits in one request body: the server refuses bodies over its limit (16 MiB for the worker
 * API), so the agent sends log lines and action updates in slices of at most
 * MAX_WORKER_BODY_BYTES of JSON, however long and however escaped their text is (a control
 * character is six bytes of JSON, a CJK character three).
 */

/** How many of the first `items` (at most `max`) fit in `maxBytes` of JSON; always at least one. */
export function countWithin(items: readonly unknown[], max: number, maxBytes: number, from = 0): number {
  let bytes = 0;
  let count = 0;
  for (let i = from; i < items.length && count < max; i++) {
    bytes += Buffer.byteLength(JSON.stringify(items[i])) + 1;
    if (count > 0 && bytes > maxBytes) break;
    count++;
  }
  return count;
}

/**
 * The task table asks the server for fixed pages of rows (jobs.tasks offset/limit): which pages
 * cover the rows on screen (plus a margin, so scrolling rarely shows a placeholder), and which
 * cover a selection (to turn selected positions into task ids for an action). Pure.
 */

export const TASK_PAGE_SIZE = 200;

/** Page numbers covering rows `first..last` widened by `margin` rows, within `count` rows. */
export function pagesForRange(first: number, last: number, count: number, margin = 0, pageSize = TASK_PAGE_SIZE): number[] {
  if (count <= 0 || last < first) return [0];
  const lo = Math.max(0, first - margin);
  const hi = Math.min(count - 1, last + margin);
  if (hi < lo) return [0];
  const pages: number[] = [];
  for (let p = Math.floor(lo / pageSize); p <= Math.floor(hi / pageSize); p++) pages.push(p);
  return pages;
}

/** Page numbers holding any of the given rows, ascending. */
export function pagesForRows(rows: Iterable<number>, pageSize = TASK_PAGE_SIZE): number[] {
  const pages = new Set<number>();
  for (const row of rows) pages.add(Math.floor(row / pageSize));
  return [...pages].sort((a, b) => a - b);
}

/** The ids at the given rows, from loaded pages (`pages.get(p)` is page p's ids in order); rows not loaded are left out. */
export function idsAtRows(rows: Iterable<number>, pages: ReadonlyMap<number, readonly number[]>, pageSize = TASK_PAGE_SIZE): number[] {
  const ids: number[] = [];
  for (const row of rows) {
    const id = pages.get(Math.floor(row / pageSize))?.[row % pageSize];
    if (id !== undefined) ids.push(id);
  }
  return ids;
}

"use client";

import { pageCount, PAGE_SIZES, type JobView } from "./job-view";

/** Pages of the job table (the server pages; the browser never holds more than one). */
export function JobsPager({ view, total, onChange }: { view: JobView; total: number; onChange: (view: JobView) => void }) {
  const pages = pageCount(total, view.pageSize);
  const page = Math.min(view.page, pages);
  const first = total === 0 ? 0 : (page - 1) * view.pageSize + 1;
  const last = Math.min(total, page * view.pageSize);
  return (
    <nav className="toolbar pager" aria-label="Job pages">
      <button type="button" disabled={page <= 1} onClick={() => onChange({ ...view, page: 1 })}>
        First
      </button>
      <button type="button" disabled={page <= 1} onClick={() => onChange({ ...view, page: page - 1 })}>
        Previous
      </button>
      <span aria-live="polite">
        {first.toLocaleString("en")}–{last.toLocaleString("en")} of {total.toLocaleString("en")} (page {page} of {pages})
      </span>
      <button type="button" disabled={page >= pages} onClick={() => onChange({ ...view, page: page + 1 })}>
        Next
      </button>
      <button type="button" disabled={page >= pages} onClick={() => onChange({ ...view, page: pages })}>
        Last
      </button>
      <label className="inline">
        Rows per page
        <select value={view.pageSize} onChange={(e) => onChange({ ...view, pageSize: Number(e.target.value), page: 1 })}>
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </label>
    </nav>
  );
}

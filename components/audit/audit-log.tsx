"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useSearchParams } from "next/navigation";
import { useMemo } from "react";
import { formatTimestamp } from "@/lib/farm/display";
import type { AuditRow } from "@/server/queries/audit";
import { useTRPC } from "../trpc";
import { DataTable } from "../ui/data-table";
import { actorText, changeText } from "./audit-details";
import { auditExportHref, auditFilterSearch, auditListInput, parseAuditFilter, type AuditFilter } from "./audit-filter";
import { AuditFilters } from "./audit-filters";
import "../jobs/jobs.css";
import "../admin/admin.css";

const OUTCOME_TONES: Record<string, string> = { ok: "good", refused: "bad", failed: "paused" };

/** A filter change is a new history entry (Back returns to the previous view); Next keeps useSearchParams in step. */
function go(filter: AuditFilter) {
  window.history.pushState(null, "", `/admin/audit${auditFilterSearch(filter)}`);
}

/** The audit log, newest first, a page at a time, filtered by what the URL says; the export takes the same filter. */
export function AuditLog() {
  const trpc = useTRPC();
  const searchParams = useSearchParams();
  const filter = useMemo(() => parseAuditFilter(new URLSearchParams(searchParams.toString())), [searchParams]);
  const page = useQuery(trpc.audit.list.queryOptions(auditListInput(filter), { placeholderData: keepPreviousData }));
  const rows = page.data?.rows ?? [];

  return (
    <>
      <AuditFilters filter={filter} onChange={go} />
      <div className="toolbar">
        <span aria-live="polite">{page.data ? `${rows.length} entr${rows.length === 1 ? "y" : "ies"}${filter.before !== null ? " (older page)" : ""}` : "Loading…"}</span>
        {page.isFetching && <span className="muted">updating…</span>}
        <a className="button" href={auditExportHref(filter, "csv")} download>
          Export CSV
        </a>
        <a className="button" href={auditExportHref(filter, "jsonl")} download>
          Export JSON lines
        </a>
        <span className="muted">Exports hold every matching entry, not just this page.</span>
      </div>
      {page.error && (
        <p role="alert" className="error-text">
          Could not load the audit log: {page.error.message}
        </p>
      )}
      <DataTable label="Audit log" columns={["Time (UTC)", "Actor", "Action", "Target", "Outcome", "Change", "Address"]} empty={page.data && rows.length === 0 && "No entries match this filter."}>
        {rows.map((row) => (
          <AuditLine key={row.id} row={row} />
        ))}
      </DataTable>
      <div className="toolbar">
        {filter.before !== null && (
          <button type="button" onClick={() => go({ ...filter, before: null })}>
            Newest entries
          </button>
        )}
        {page.data?.next != null && (
          <button type="button" onClick={() => go({ ...filter, before: page.data?.next ?? null })}>
            Older entries
          </button>
        )}
      </div>
    </>
  );
}

/** A row as it arrives over JSON (before and after may be absent there). */
type AuditLineRow = Omit<AuditRow, "before" | "after"> & { before?: unknown; after?: unknown };

function AuditLine({ row }: { row: AuditLineRow }) {
  const change = changeText(row.before ?? null, row.after ?? null);
  return (
    <tr>
      <td className="time">
        <time dateTime={new Date(row.time).toISOString()}>{formatTimestamp(row.time)}</time>
      </td>
      <td>{actorText(row)}</td>
      <td>
        <code>{row.action}</code>
      </td>
      <td>{row.targetId === null ? <span className="muted">—</span> : `${row.targetKind ?? ""} ${row.targetId}`.trim()}</td>
      <td>
        <span className={`badge tone-${OUTCOME_TONES[row.outcome] ?? "off"}`}>{row.outcome}</span>
      </td>
      <td>
        {change}
        {row.detail && <div className="muted">{row.detail}</div>}
      </td>
      <td className="muted">{row.address ?? "—"}</td>
    </tr>
  );
}

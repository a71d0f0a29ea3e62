"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { decide, RULES, type Rule } from "@/lib/farm/access";
import { formatTimestamp } from "@/lib/farm/display";
import { useAllows, useMe } from "@/components/auth/me";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { useTRPC } from "@/components/trpc";
import { DataTable } from "@/components/ui/data-table";
import { NoticeLine, type Notice } from "@/components/ui/notice";
import "./templates.css";

/** The templates router's delete rule: artists delete their own, wranglers any. */
const DELETE_RULE: Rule = { kind: "ownTemplate", key: "id" };

/** The saved templates, newest first, with what an artist does next: edit, submit, delete (their own; a wrangler any); viewers read them. */
export function TemplateLibrary() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.templates.list.queryOptions());
  const [notice, setNotice] = useState<Notice | null>(null);
  const remove = useMutation(
    trpc.templates.delete.mutationOptions({
      onSuccess: (_result, input) => {
        setNotice({ tone: "good", text: `Deleted “${rows.find((r) => r.id === input.id)?.name ?? input.id}” from the library.` });
        void queryClient.invalidateQueries(trpc.templates.list.queryFilter());
      },
      onError: (error) => setNotice({ tone: "bad", text: `Not deleted: ${error.message}` }),
    }),
  );
  const me = useMe();
  // Viewers open templates in the editor to read them; submitting is for artists and up.
  const maySubmit = useAllows(RULES.submit);
  const rows = list.data ?? [];
  return (
    <section className="template-library" aria-labelledby="library-heading">
      <h2 id="library-heading">Library</h2>
      {list.error ? (
        <p role="alert" className="error-text">
          Could not load the library: {list.error.message}
        </p>
      ) : null}
      {/* A deleted row takes its Delete button with it: the result takes the focus. */}
      <NoticeLine notice={notice} takeFocus />
      {list.isPending ? <p className="muted">Loading…</p> : rows.length === 0 ? <p className="muted">No saved templates yet. Upload or paste one, or save one from the editor.</p> : null}
      {rows.length > 0 ? (
        <DataTable label="Saved templates" className="data" columns={["Name", "Kind", "Saved", "Errors", "Bundle values", { label: "Actions", hidden: true }]}>
          {rows.map((row) => (
            <tr key={row.id}>
              <th scope="row">{row.name}</th>
              <td>
                {row.kind === "job" ? "Job" : "Environment"} <span className="muted">({row.format.toUpperCase()})</span>
              </td>
              <td>
                <time dateTime={new Date(row.updatedAt).toISOString()}>{formatTimestamp(row.updatedAt)}</time>
              </td>
              <td>{row.errorCount === 0 ? <span className="status-good">none</span> : <span className="badge tone-bad">{row.errorCount}</span>}</td>
              <td>{row.parameterValueCount === 0 ? <span className="muted">—</span> : row.parameterValueCount}</td>
              <td>
                <div className="row-actions">
                  <Link className="button" href={`/editor?template=${encodeURIComponent(row.id)}`} aria-label={`Open ${row.name} in the editor`}>
                    Open in editor
                  </Link>
                  {row.kind === "job" && maySubmit ? (
                    <Link className="button" href={`/submit?template=${encodeURIComponent(row.id)}`} aria-label={`Submit ${row.name}`}>
                      Submit
                    </Link>
                  ) : null}
                  {decide(me, DELETE_RULE, row.ownerId ?? "").ok && (
                    <ConfirmButton
                      label="Delete"
                      danger
                      question={`Delete template “${row.name}” from the library? Jobs already submitted with it are not affected.`}
                      confirmLabel={`Delete ${row.name}`}
                      disabled={remove.isPending}
                      onConfirm={() => remove.mutate({ id: row.id })}
                    />
                  )}
                </div>
              </td>
            </tr>
          ))}
        </DataTable>
      ) : null}
    </section>
  );
}

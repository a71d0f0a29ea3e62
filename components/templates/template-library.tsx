"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { decide, type Rule } from "@/lib/farm/access";
import { formatTimestamp } from "@/lib/farm/display";
import { useMe } from "@/components/auth/me";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { useTRPC } from "@/components/trpc";
import "./templates.css";

/** The templates router's delete rule: artists delete their own, wranglers any. */
const DELETE_RULE: Rule = { kind: "ownTemplate", key: "id" };

/** The saved templates, newest first, with what an artist does next: edit, submit, delete (their own; a wrangler any). */
export function TemplateLibrary() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.templates.list.queryOptions());
  const remove = useMutation(trpc.templates.delete.mutationOptions({ onSuccess: () => queryClient.invalidateQueries(trpc.templates.list.queryFilter()) }));
  const me = useMe();
  const rows = list.data ?? [];
  return (
    <section className="template-library" aria-labelledby="library-heading">
      <h2 id="library-heading">Library</h2>
      {list.error ? <p className="error-text">Could not load the library: {list.error.message}</p> : null}
      {remove.error ? <p role="alert" className="error-text">Not deleted: {remove.error.message}</p> : null}
      {list.isPending ? <p className="muted">Loading…</p> : rows.length === 0 ? <p className="muted">No saved templates yet. Upload or paste one, or save one from the editor.</p> : null}
      {rows.length > 0 ? (
        <table className="data" aria-label="Saved templates">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Kind</th>
              <th scope="col">Saved</th>
              <th scope="col">Errors</th>
              <th scope="col">Bundle values</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
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
                    {row.kind === "job" ? (
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
          </tbody>
        </table>
      ) : null}
    </section>
  );
}

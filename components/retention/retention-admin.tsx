"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { formatTimestamp } from "@/lib/farm/display";
import { useTRPC } from "../trpc";
import { ConfirmButton } from "../ui/confirm-button";
import { NoticeLine, type Notice } from "../ui/notice";
import { purgeText, readDays, sizeText } from "./retention-days";
import "../admin/admin.css";
import "./retention.css";

type Mode = "archive" | "delete";

const MODE_WORDS: Record<Mode, { label: string; hint: string }> = {
  archive: { label: "Archive, then remove", hint: "each job, its tasks, Sessions and logs go to a compressed file in the data folder's archive/ first" },
  delete: { label: "Delete", hint: "gone for good: nothing is kept" },
};

/** Finished jobs older than N days: how many there are, and removing them (archived first, or not). */
export function RetentionAdmin({ defaultDays }: { defaultDays: number }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [text, setText] = useState(String(defaultDays));
  const [mode, setMode] = useState<Mode>("archive");
  const [notice, setNotice] = useState<Notice | null>(null);
  const { days, problem } = readDays(text);
  const preview = useQuery({ ...trpc.retention.preview.queryOptions({ olderThanDays: days ?? defaultDays }, { placeholderData: keepPreviousData }), enabled: days !== null });
  const purge = useMutation(
    trpc.retention.purge.mutationOptions({
      onSuccess: (result) => {
        setNotice({ tone: "good", text: purgeText(result) });
        void queryClient.invalidateQueries(trpc.retention.preview.pathFilter());
        void queryClient.invalidateQueries(trpc.jobs.pathFilter());
      },
      onError: (error) => setNotice({ tone: "bad", text: `Nothing removed: ${error.message}` }),
    }),
  );
  const found = preview.data;
  const count = found?.jobs ?? 0;

  return (
    <section className="retention" aria-labelledby="retention-title">
      <h2 className="admin-section-title" id="retention-title">
        Finished jobs
      </h2>
      <div className="toolbar">
        <label className="inline">
          Older than (days)
          <input
            type="number"
            min={0}
            step={1}
            className="narrow"
            value={text}
            onChange={(e) => setText(e.target.value)}
            aria-invalid={problem ? true : undefined}
            aria-describedby="retention-days-note"
          />
        </label>
        <span id="retention-days-note" className={problem ? "error-text" : "muted"}>
          {problem ?? `The farm's setting is ${defaultDays} days (LOOM_JOB_RETENTION_DAYS).`}
        </span>
      </div>
      <p aria-live="polite">
        {preview.error
          ? null
          : found && days !== null
            ? `${sizeText(found)}: finished jobs that ended before ${formatTimestamp(found.cutoff)}, with nothing left that could run.`
            : days !== null
              ? "Counting…"
              : null}
      </p>
      {preview.error && (
        <p role="alert" className="error-text">
          Could not count: {preview.error.message}
        </p>
      )}
      <fieldset>
        <legend>How</legend>
        {(Object.keys(MODE_WORDS) as Mode[]).map((m) => (
          <label key={m}>
            <input type="radio" name="retention-mode" value={m} checked={mode === m} onChange={() => setMode(m)} />
            {MODE_WORDS[m].label} <span className="muted">({MODE_WORDS[m].hint})</span>
          </label>
        ))}
      </fieldset>
      <div className="toolbar">
        <ConfirmButton
          label={`${mode === "archive" ? "Archive" : "Delete"} ${count} job${count === 1 ? "" : "s"}`}
          danger={mode === "delete"}
          question={`${mode === "archive" ? "Archive and remove" : "Delete for good"} ${found ? sizeText(found) : "these jobs"} older than ${days} days? Jobs with tasks that could still run (running, suspended, or waiting for a worker that can run them) are left alone.`}
          confirmLabel={mode === "archive" ? "Yes, archive" : "Yes, delete"}
          disabled={days === null || count === 0 || purge.isPending || preview.isFetching}
          onConfirm={() => days !== null && purge.mutate({ olderThanDays: days, mode })}
        />
        {purge.isPending && <span className="muted">Removing…</span>}
      </div>
      {/* The button is disabled once nothing is left to remove: the result takes the focus. */}
      <NoticeLine notice={notice} takeFocus />
    </section>
  );
}

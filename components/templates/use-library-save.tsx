"use client";
/**
 * Saving to the library from /templates (upload, paste) and /editor: a save that meets an entry
 * of the same name asks first, in a modal dialog: Replace (only for whoever may: the owner, a
 * wrangler or an admin), Keep both ("name (2)"), or Cancel. The server refuses an unasked
 * overwrite itself (CONFLICT), so a second tab cannot overwrite silently either: its Replace
 * names the version it was shown, and a newer one is asked about again.
 */
import { useMutation } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { useTRPC } from "@/components/trpc";
import type { SavedTemplate } from "@/server/services/templates";
import { conflictQuestion, existingOf, resolveConflict, type ConflictChoice, type ExistingTemplate } from "./save-conflict";

type SaveInput = { name: string; text: string; format: "yaml" | "json"; parameterValues?: Record<string, unknown>; replace?: { id: string; updatedAt: number } };
type BundleInput = { fileName: string; base64: string; name?: string };
type Pending = { kind: "save"; input: SaveInput } | { kind: "bundle"; input: BundleInput };

export function useLibrarySave({ onSaved, onFailed }: { onSaved: (saved: SavedTemplate) => void; onFailed: (error: { message: string }) => void }) {
  const trpc = useTRPC();
  const [asking, setAsking] = useState<{ pending: Pending; existing: ExistingTemplate } | null>(null);
  const failed = (pending: Pending) => (error: unknown) => {
    const existing = existingOf(error);
    if (existing) setAsking({ pending, existing });
    else onFailed(error as { message: string });
  };
  const save = useMutation(trpc.templates.save.mutationOptions({ onSuccess: onSaved }));
  const bundle = useMutation(trpc.templates.importBundle.mutationOptions({ onSuccess: onSaved }));
  const run = (pending: Pending) => {
    if (pending.kind === "save") save.mutate(pending.input, { onError: failed(pending) });
    else bundle.mutate(pending.input, { onError: failed(pending) });
  };
  const choose = (choice: ConflictChoice) => {
    if (!asking) return;
    const { pending, existing } = asking;
    setAsking(null);
    const again = resolveConflict(pending.input, existing, choice);
    if (!again) return onFailed({ message: `kept the library's “${existing.name}” as it is` });
    run({ kind: pending.kind, input: again } as Pending);
  };
  return {
    save: (input: SaveInput) => run({ kind: "save", input }),
    importBundle: (input: BundleInput) => run({ kind: "bundle", input }),
    busy: save.isPending || bundle.isPending,
    dialog: asking ? <ConflictDialog existing={asking.existing} onChoose={choose} /> : null,
  };
}

function ConflictDialog({ existing, onChoose }: { existing: ExistingTemplate; onChoose: (choice: ConflictChoice) => void }): ReactNode {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    dialog.current?.showModal();
  }, []);
  return (
    // Escape closes a native dialog: that is Cancel.
    <dialog ref={dialog} aria-labelledby={titleId} onCancel={() => onChoose("cancel")}>
      <p id={titleId}>{conflictQuestion(existing)}</p>
      {existing.mayReplace ? null : <p className="muted">It is {existing.ownerName ?? "someone else"}&apos;s: only its owner, a wrangler or an admin may replace it.</p>}
      <div className="toolbar">
        {existing.mayReplace ? (
          <button type="button" className="danger" onClick={() => onChoose("replace")}>
            Replace
          </button>
        ) : null}
        <button type="button" className="primary" onClick={() => onChoose("keepBoth")}>
          Keep both
        </button>
        <button type="button" onClick={() => onChoose("cancel")}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}

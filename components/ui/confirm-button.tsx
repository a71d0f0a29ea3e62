"use client";

import { useId, useRef, type ReactNode } from "react";

interface ConfirmButtonProps {
  /** The button's text (its accessible name). */
  label: string;
  /** What the dialog asks, e.g. "Cancel job Render (120 tasks)?" */
  question: ReactNode;
  /** The confirming button's text; the label when absent. */
  confirmLabel?: string;
  onConfirm: () => void;
  disabled?: boolean;
  danger?: boolean;
}

/**
 * A button whose action waits for confirmation in a modal <dialog> (focus is trapped and Escape
 * closes it, both native), so a wrangler never cancels a night's render with one stray click.
 */
export function ConfirmButton({ label, question, confirmLabel, onConfirm, disabled, danger }: ConfirmButtonProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  return (
    <>
      <button type="button" className={danger ? "danger" : undefined} disabled={disabled} onClick={() => dialog.current?.showModal()}>
        {label}
      </button>
      <dialog ref={dialog} aria-labelledby={titleId}>
        <p id={titleId}>{question}</p>
        <div className="toolbar">
          <button
            type="button"
            className={danger ? "danger" : "primary"}
            onClick={() => {
              dialog.current?.close();
              onConfirm();
            }}
          >
            {confirmLabel ?? label}
          </button>
          <button type="button" onClick={() => dialog.current?.close()}>
            Keep as is
          </button>
        </div>
      </dialog>
    </>
  );
}

"use client";

import { useEffect, useId, useRef, useState, type ReactNode } from "react";

interface Props {
  /** The panel's heading (its region name), e.g. "New token nightly". */
  title: string;
  /** The field's accessible name, e.g. "Token nightly". */
  fieldLabel: string;
  token: string;
  /** What to do if it is lost ("revoke it and make another", "rotate the token"). */
  ifLost: string;
  /** How the token is used, under the field. */
  children?: ReactNode;
  /** The element to focus after the panel closes when the control that opened it is gone (the form that made the token). */
  returnFocusTo: string;
  onClose: () => void;
}

/**
 * A secret shown once (a personal access token, a pool token): Loom keeps only its hash, so this
 * panel is the only place it ever appears. It lives in this component's props only (never in
 * storage or the query cache); closing the panel is the caller forgetting it. The field takes
 * focus, selected, and says why it matters; closing gives focus back to the control that asked
 * for the token, or to `returnFocusTo` when that control is gone.
 */
export function ShownOnceToken({ title, fieldLabel, token, ifLost, children, returnFocusTo, onClose }: Props) {
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  const titleId = useId();
  const warningId = useId();
  useEffect(() => {
    const active = document.activeElement;
    const opener = active instanceof HTMLElement && active !== document.body ? active : null;
    field.current?.focus();
    field.current?.select();
    return () => {
      // Runs after the panel has left the page and whatever replaced it is in.
      const target = opener?.isConnected ? opener : document.getElementById(returnFocusTo);
      target?.focus();
    };
  }, [token, returnFocusTo]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(token);
      setCopied("yes");
    } catch {
      // Clipboard access can be refused; the field is selected, so Ctrl+C still works.
      field.current?.select();
      setCopied("failed");
    }
  }

  return (
    <section className="token-once" aria-labelledby={titleId}>
      <h2 className="admin-section-title" id={titleId}>
        {title}
      </h2>
      <p className="warning" id={warningId}>
        Copy it now: you will not see it again. Loom stores only a hash of it; if it is lost, {ifLost}.
      </p>
      <div className="token-row">
        <input ref={field} readOnly value={token} aria-label={fieldLabel} aria-describedby={warningId} onFocus={(e) => e.currentTarget.select()} spellCheck={false} autoComplete="off" />
        <button type="button" className="primary" onClick={copy}>
          Copy token
        </button>
      </div>
      <p aria-live="polite" className="muted">
        {copied === "yes" ? "Copied to the clipboard." : copied === "failed" ? "The browser refused the clipboard: the token is selected, press Ctrl+C." : ""}
      </p>
      {children}
      <button type="button" onClick={onClose}>
        Done: hide the token
      </button>
    </section>
  );
}

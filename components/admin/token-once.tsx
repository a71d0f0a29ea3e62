"use client";

import { useEffect, useRef, useState } from "react";

/**
 * A pool token, shown once: Loom keeps only its hash, so this panel is the only place it ever
 * appears. It lives in this component's props only (never in storage); closing the panel is
 * the caller forgetting it.
 */
export function TokenOnce({ poolName, token, rotated, onClose }: { poolName: string; token: string; rotated: boolean; onClose: () => void }) {
  const field = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  useEffect(() => {
    field.current?.focus();
    field.current?.select();
  }, [token]);

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
    <section className="token-once" aria-labelledby="token-once-title">
      <h2 className="admin-section-title" id="token-once-title">{rotated ? `New token for pool ${poolName}` : `Token for pool ${poolName}`}</h2>
      <p className="warning">Copy it now: you will not see it again. Loom stores only a hash of it; if it is lost, rotate the token.</p>
      {rotated && <p className="muted">The old token no longer works: give this one to every worker of the pool.</p>}
      <div className="token-row">
        <input ref={field} readOnly value={token} aria-label={`Token for pool ${poolName}`} onFocus={(e) => e.currentTarget.select()} spellCheck={false} autoComplete="off" />
        <button type="button" className="primary" onClick={copy}>
          Copy token
        </button>
      </div>
      <p aria-live="polite" className="muted">
        {copied === "yes" ? "Copied to the clipboard." : copied === "failed" ? "The browser refused the clipboard: the token is selected, press Ctrl+C." : ""}
      </p>
      <p className="muted">
        A worker joins the pool with <code>loom worker --server {window.location.origin} --token-file FILE</code> (or <code>LOOM_WORKER_TOKEN</code>), which keeps the token out of the process list.
      </p>
      <button type="button" onClick={onClose}>
        Done: hide the token
      </button>
    </section>
  );
}

"use client";

import { useEffect, useRef, useState } from "react";

/**
 * A personal access token, shown once: Loom keeps only its hash, so this panel is the only place
 * it ever appears. It lives in this component's props only (never in storage or the query
 * cache); closing the panel is the caller forgetting it.
 */
export function NewToken({ name, token, onClose }: { name: string; token: string; onClose: () => void }) {
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
    <section className="token-once" aria-labelledby="new-token-title">
      <h2 className="admin-section-title" id="new-token-title">
        New token {name}
      </h2>
      <p className="warning">Copy it now: you will not see it again. Loom stores only a hash of it; if it is lost, revoke it and make another.</p>
      <div className="token-row">
        <input ref={field} readOnly value={token} aria-label={`Token ${name}`} onFocus={(e) => e.currentTarget.select()} spellCheck={false} autoComplete="off" />
        <button type="button" className="primary" onClick={copy}>
          Copy token
        </button>
      </div>
      <p aria-live="polite" className="muted">
        {copied === "yes" ? "Copied to the clipboard." : copied === "failed" ? "The browser refused the clipboard: the token is selected, press Ctrl+C." : ""}
      </p>
      <p className="muted">
        Scripts send it as <code>Authorization: Bearer &lt;token&gt;</code>; the <code>loom</code> command reads it from <code>LOOM_TOKEN</code> (or run{" "}
        <code>loom login --server {window.location.origin}</code>, which makes and stores a token for you).
      </p>
      <button type="button" onClick={onClose}>
        Done: hide the token
      </button>
    </section>
  );
}

"use client";

import { useEffect, useRef } from "react";

/** What became of an action the user just took, in one line. */
export interface Notice {
  tone: "good" | "bad";
  text: string;
}

/**
 * A failure is an alert (read out at once); a success is a polite status. With `takeFocus`, each
 * new notice also takes the focus: for actions whose button goes away once they are done (a
 * revoked token's Revoke), so the keyboard stays where the result is.
 */
export function NoticeLine({ notice, takeFocus = false }: { notice: Notice | null; takeFocus?: boolean }) {
  const line = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (takeFocus && notice) line.current?.focus();
  }, [takeFocus, notice]);
  if (!notice) return null;
  return (
    <p ref={line} tabIndex={takeFocus ? -1 : undefined} role={notice.tone === "bad" ? "alert" : "status"} className={notice.tone === "bad" ? "error-text" : "status-good"}>
      {notice.text}
    </p>
  );
}

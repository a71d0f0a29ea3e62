/** What became of an action the user just took, in one line. */
export interface Notice {
  tone: "good" | "bad";
  text: string;
}

/** A failure is an alert (read out at once); a success is a polite status. */
export function NoticeLine({ notice }: { notice: Notice | null }) {
  if (!notice) return null;
  return (
    <p role={notice.tone === "bad" ? "alert" : "status"} className={notice.tone === "bad" ? "error-text" : "status-good"}>
      {notice.text}
    </p>
  );
}

/**
 * The log caps' wording, shared by the worker (which stops buffering past a cap and says how much
 * it dropped when the action ends) and the server (which stores nothing past a cap, whatever a
 * worker sends, and marks where it stopped). Caps count characters of line text.
 */

/** `2 MiB`, `0.5 MiB`, `64 MiB` (a cap in characters, read as bytes of ASCII text). */
export function mebibytes(chars: number): string {
  const value = chars / (1024 * 1024);
  return `${Number.isInteger(value) ? value : Number(value.toFixed(value < 1 ? 3 : 1))} MiB`;
}

export type CapKind = "action" | "Session";

/** The worker's line, once the action ended, for what it did not ship. */
export function droppedLinesMarker(lines: number, chars: number, kind: CapKind, cap: number): string {
  return `… ${lines} ${lines === 1 ? "line" : "lines"} (${chars} characters) dropped: over the log cap of ${mebibytes(cap)} per ${kind}`;
}

/** The server's line where it stopped storing (it cannot know how many more will come). */
export function capReachedMarker(kind: CapKind, cap: number): string {
  return `… later lines dropped: over the log cap of ${mebibytes(cap)} per ${kind}`;
}

/**
 * Room the worker leaves under each cap for its own marker lines, so they fit within what the
 * server stores: one per action under the action cap, up to ~1 % of the Session cap for the
 * markers of the actions that ran after the Session filled up.
 */
export function markerRoom(kind: CapKind, cap: number): number {
  const wanted = kind === "action" ? 1_000 : Math.max(1_000, Math.floor(cap / 100));
  return Math.min(wanted, Math.floor(cap / 10));
}

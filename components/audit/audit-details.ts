/**
 * One audit row's change as a line of text: `role: artist → wrangler`, `name: nightly, scope:
 * read`. Before and after are what the writer stored (small objects, or anything JSON); values
 * are shown compactly and long ones cut, so a row stays one line. Pure.
 */

const MAX_VALUE = 80;

function show(value: unknown): string {
  const text = typeof value === "string" ? value : value === undefined ? "—" : JSON.stringify(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function changeText(before: unknown, after: unknown): string {
  if (before === null && after === null) return "";
  if (isRecord(before) || isRecord(after)) {
    const b = isRecord(before) ? before : {};
    const a = isRecord(after) ? after : {};
    const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
    return keys
      .map((key) => {
        if (!(key in b)) return `${key}: ${show(a[key])}`;
        if (!(key in a)) return `${key}: ${show(b[key])}${after === null ? "" : " → —"}`;
        return show(b[key]) === show(a[key]) ? `${key}: ${show(a[key])}` : `${key}: ${show(b[key])} → ${show(a[key])}`;
      })
      .join(", ");
  }
  if (before === null) return show(after);
  if (after === null) return show(before);
  return `${show(before)} → ${show(after)}`;
}

/** "ana" / "ana (token tok-…)" / "anonymous 'mallory'": who acted, and how. */
export function actorText(row: { actorKind: string; actorName: string; via: string | null }): string {
  const via = row.via === null || row.via === "session" ? "" : row.via.startsWith("token:") ? ` (token ${row.via.slice(6)})` : ` (${row.via})`;
  // People are known by name; the rest say what they are unless their name does ("system", "shell:root").
  if (row.actorKind === "user" || row.actorName.startsWith(row.actorKind)) return `${row.actorName}${via}`;
  return `${row.actorKind} ${row.actorName}${via}`;
}

import { describe, expect, it } from "vitest";
import { describeMissing, type MissingKind } from "./missing";

const cases: Array<{ kind: MissingKind; path: string; search?: string; title: string; names: string[]; back: string }> = [
  { kind: "job", path: "/jobs/job-nope", title: "Job not found", names: ["job-nope"], back: "/jobs" },
  { kind: "session", path: "/jobs/job-1/sessions/ses-x", title: "Session not found", names: ["job-1", "ses-x"], back: "/jobs/job-1" },
  { kind: "session", path: "/jobs/a%20b/sessions/s%2F1", title: "Session not found", names: ["a b", "s/1"], back: "/jobs/a%20b" },
  { kind: "template", path: "/editor", search: "template=tpl-gone", title: "Template not found", names: ["tpl-gone"], back: "/templates" },
  { kind: "template", path: "/submit", search: "template=tpl-%3Cb%3E", title: "Template not found", names: ["tpl-<b>"], back: "/templates" },
  { kind: "page", path: "/no/such/page", title: "Page not found", names: ["/no/such/page"], back: "/" },
  // A malformed escape is shown as typed rather than throwing in the 404 page itself.
  { kind: "job", path: "/jobs/%E0%A4%A", title: "Job not found", names: ["%E0%A4%A"], back: "/jobs" },
];

describe("describeMissing", () => {
  it.each(cases)("$kind at $path", ({ kind, path, search, title, names, back }) => {
    const missing = describeMissing(kind, path, new URLSearchParams(search ?? ""));
    expect(missing.title).toBe(title);
    for (const name of names) expect(missing.detail).toContain(name);
    expect(missing.back.href).toBe(back);
  });
});

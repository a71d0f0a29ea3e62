import { describe, expect, it } from "vitest";
import { listAuditInput } from "@/server/queries/audit";
import { ACTION_GROUPS, auditExportHref, auditFilterSearch, auditListInput, EMPTY_FILTER, PAGE_SIZE, parseAuditFilter, withAuditFilter, type AuditFilter } from "./audit-filter";

const filter = (patch: Partial<AuditFilter>): AuditFilter => ({ ...EMPTY_FILTER, ...patch });

describe("parseAuditFilter", () => {
  it.each<[string, string, Partial<AuditFilter>]>([
    ["nothing", "", {}],
    [
      "every field",
      "actor=ana&kind=user&action=job.cancel&target=job-abc&outcome=refused&from=2026-01-10T14:00&to=2026-01-10T15:30&before=42",
      {
        actor: "ana",
        actorKind: "user",
        action: "job.cancel",
        target: "job-abc",
        outcome: "refused",
        from: "2026-01-10T14:00",
        to: "2026-01-10T15:30",
        before: 42,
      },
    ],
    ["a group", "group=auth.", { actionGroup: "auth." }],
    ["an action beats a group", "group=auth.&action=job.cancel", { action: "job.cancel" }],
    ["unknown action, group, kind and outcome", "action=job.explode&group=nope.&kind=robot&outcome=maybe", {}],
    ["a malformed time", "from=2026-01-10&to=yesterday", {}],
    ["a bad page cursor", "before=-3", {}],
    ["a zero page cursor", "before=0", {}],
  ])("%s", (_case, query, expected) => {
    expect(parseAuditFilter(new URLSearchParams(query))).toEqual(filter(expected));
  });

  it("reads a Next.js searchParams record like a URL", () => {
    expect(parseAuditFilter({ actor: ["ana", "ben"], outcome: "ok" })).toEqual(filter({ actor: "ana", outcome: "ok" }));
  });

  it("round-trips through the URL", () => {
    const views: AuditFilter[] = [
      EMPTY_FILTER,
      filter({ actor: "ana", action: "job.cancel", outcome: "refused" }),
      filter({ actionGroup: "user.", from: "2026-01-10T00:00", to: "2026-01-11T23:59", before: 900 }),
      filter({ actorKind: "anonymous", target: "ana" }),
    ];
    for (const view of views) expect(parseAuditFilter(new URLSearchParams(auditFilterSearch(view)))).toEqual(view);
  });
});

describe("auditFilterSearch", () => {
  it("is empty for everything, newest first", () => {
    expect(auditFilterSearch(EMPTY_FILTER)).toBe("");
  });
  it("leaves a group out when an action is chosen, and trims typed names", () => {
    expect(auditFilterSearch(filter({ actor: " ana ", action: "job.cancel", actionGroup: "job." }))).toBe("?actor=ana&action=job.cancel");
  });
});

describe("withAuditFilter", () => {
  it("goes back to the newest rows when the filter changes", () => {
    expect(withAuditFilter(filter({ before: 50 }), { outcome: "refused" })).toEqual(filter({ outcome: "refused" }));
  });
});

describe("auditListInput", () => {
  it("is what audit.list accepts", () => {
    const input = auditListInput(filter({ actor: "ana", actionGroup: "job.", outcome: "refused", from: "2026-01-10T14:00", to: "2026-01-10T15:30", before: 77 }));
    expect(input).toEqual({ actor: "ana", actionGroup: "job.", outcome: "refused", from: Date.UTC(2026, 0, 10, 14), to: Date.UTC(2026, 0, 10, 15, 31), before: 77, limit: PAGE_SIZE });
    expect(listAuditInput.safeParse(input).success).toBe(true);
  });
  it("asks for the newest page of everything when nothing is chosen", () => {
    expect(auditListInput(EMPTY_FILTER)).toEqual({ limit: PAGE_SIZE });
  });
  it("every action group is one the server accepts", () => {
    for (const group of ACTION_GROUPS) expect(listAuditInput.safeParse({ actionGroup: group }).success, group).toBe(true);
    expect(ACTION_GROUPS).toContain("job.");
    expect(ACTION_GROUPS).toContain("auth.");
  });
});

describe("auditExportHref", () => {
  it("carries the same filter as the server's names, without the page", () => {
    const href = auditExportHref(filter({ actor: "ana", action: "job.cancel", from: "2026-01-10T14:00", before: 5 }), "csv");
    const url = new URL(href, "http://portal.invalid");
    expect(url.pathname).toBe("/api/audit/export");
    expect(Object.fromEntries(url.searchParams)).toEqual({ format: "csv", actor: "ana", action: "job.cancel", from: String(Date.UTC(2026, 0, 10, 14)) });
  });
  it("jsonl with no filter", () => {
    expect(auditExportHref(EMPTY_FILTER, "jsonl")).toBe("/api/audit/export?format=jsonl");
  });
});

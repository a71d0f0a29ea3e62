import { describe, expect, it } from "vitest";
import { conflictQuestion, existingOf, resolveConflict } from "./save-conflict";

const existing = { id: "tpl-1", name: "Shot", ownerName: "ana", updatedAt: Date.UTC(2024, 4, 1, 10, 0, 0), mayReplace: false };

describe("existingOf", () => {
  it("reads the entry from a CONFLICT answer", () => {
    expect(existingOf({ data: { appCode: "CONFLICT", details: { existing } } })).toEqual(existing);
    expect(existingOf({ data: { appCode: "CONFLICT", details: { existing: { ...existing, ownerName: null, mayReplace: "yes" } } } })).toEqual({ ...existing, ownerName: null, mayReplace: false });
  });
  it.each([
    ["another code", { data: { appCode: "FORBIDDEN", details: { existing } } }],
    ["a conflict of another kind", { data: { appCode: "CONFLICT", details: null } }],
    ["a malformed entry", { data: { appCode: "CONFLICT", details: { existing: { id: 1, name: "Shot", updatedAt: 1 } } } }],
    ["no answer", new TypeError("fetch failed")],
    ["nothing", null],
  ])("is null for %s", (_label, error) => {
    expect(existingOf(error)).toBeNull();
  });
});

describe("conflictQuestion and resolveConflict", () => {
  it("names the entry, who saved it and when", () => {
    expect(conflictQuestion(existing)).toBe("A template named “Shot” exists, saved by ana on 2024-05-01 10:00:00 UTC.");
  });
  it("replaces exactly the version shown, keeps both, or saves nothing", () => {
    const input = { name: "Shot", text: "x", format: "yaml" as const };
    expect(resolveConflict(input, existing, "replace")).toEqual({ ...input, replace: { id: "tpl-1", updatedAt: existing.updatedAt }, keepBoth: undefined });
    expect(resolveConflict({ ...input, replace: { id: "old", updatedAt: 1 } }, existing, "keepBoth")).toEqual({ ...input, keepBoth: true, replace: undefined });
    expect(resolveConflict(input, existing, "cancel")).toBeNull();
  });
});

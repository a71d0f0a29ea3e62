import { describe, expect, it } from "vitest";
import { actorText, changeText } from "./audit-details";

describe("changeText", () => {
  it.each<[string, unknown, unknown, string]>([
    ["nothing", null, null, ""],
    ["a role change", { role: "artist" }, { role: "wrangler" }, "role: artist → wrangler"],
    ["a creation", null, { role: "admin", kind: "person" }, "role: admin, kind: person"],
    ["a removal", { name: "nightly", owner: "ana" }, null, "name: nightly, owner: ana"],
    ["an unchanged field beside a changed one", { priority: 50, name: "x" }, { priority: 80, name: "x" }, "priority: 50 → 80, name: x"],
    ["a field that appears", { a: 1 }, { a: 1, b: true }, "a: 1, b: true"],
    ["a field that goes", { a: 1, b: 2 }, { a: 1 }, "a: 1, b: 2 → —"],
    ["plain values", 50, 80, "50 → 80"],
    ["nested values as JSON", null, { tasks: { total: 3 } }, 'tasks: {"total":3}'],
    ["a long value is cut", null, { text: "x".repeat(200) }, `text: ${"x".repeat(79)}…`],
  ])("%s", (_case, before, after, text) => {
    expect(changeText(before, after)).toBe(text);
  });
});

describe("actorText", () => {
  it.each<[string, { actorKind: string; actorName: string; via: string | null }, string]>([
    ["a person in the browser", { actorKind: "user", actorName: "ana", via: "session" }, "ana"],
    ["a person's token", { actorKind: "user", actorName: "ana", via: "token:tok-123" }, "ana (token tok-123)"],
    ["a password sign-in", { actorKind: "user", actorName: "ana", via: "password" }, "ana (password)"],
    ["a failed sign-in", { actorKind: "anonymous", actorName: "mallory", via: "password" }, "anonymous mallory (password)"],
    ["the farm itself", { actorKind: "system", actorName: "system", via: null }, "system"],
    ["the server's shell", { actorKind: "shell", actorName: "shell:root", via: "shell" }, "shell:root (shell)"],
  ])("%s", (_case, row, text) => {
    expect(actorText(row)).toBe(text);
  });
});

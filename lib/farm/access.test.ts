/**
 * The rules as tables: what each role and token scope may do, written out by hand from the
 * design page (design/access-control.md), so a change to the rules shows up here as a diff.
 */
import { describe, expect, it } from "vitest";
import { decide, effectiveRole, mayActOnJob, maxPriorityFor, passwordProblem, roleAtLeast, RULES, USER_NAME, type Caller, type Role, type Rule, type TokenScope } from "./access";

const as = (role: Role, scope: TokenScope | null = null, userId = "usr-me"): Caller => ({ userId, role, scope });
const verdict = (caller: Caller | null, rule: Rule, ownerId?: string | null) => {
  const v = decide(caller, rule, ownerId);
  return v.ok ? "allow" : v.status;
};

describe("effectiveRole", () => {
  it.each([
    // role, scope, what the caller may do
    ["viewer", null, "viewer"],
    ["admin", null, "admin"],
    ["viewer", "read", "viewer"],
    ["artist", "read", "viewer"],
    ["wrangler", "read", "viewer"],
    ["admin", "read", "viewer"],
    ["viewer", "submit", "viewer"],
    ["artist", "submit", "artist"],
    ["wrangler", "submit", "wrangler"],
    ["admin", "submit", "wrangler"],
    ["viewer", "admin", "viewer"],
    ["artist", "admin", "artist"],
    ["wrangler", "admin", "wrangler"],
    ["admin", "admin", "admin"],
  ] as const)("%s with scope %s acts as %s", (role, scope, expected) => {
    expect(effectiveRole(role, scope)).toBe(expected);
  });
});

describe("decide", () => {
  const roles: Array<Role | null> = [null, "viewer", "artist", "wrangler", "admin"];

  it.each([
    // rule, anonymous, viewer, artist, wrangler, admin
    ["anyone", "allow", "allow", "allow", "allow", "allow"],
    ["signedIn", "UNAUTHORIZED", "allow", "allow", "allow", "allow"],
    ["read", "UNAUTHORIZED", "allow", "allow", "allow", "allow"],
    ["submit", "UNAUTHORIZED", "FORBIDDEN", "allow", "allow", "allow"],
    ["wrangle", "UNAUTHORIZED", "FORBIDDEN", "FORBIDDEN", "allow", "allow"],
    ["admin", "UNAUTHORIZED", "FORBIDDEN", "FORBIDDEN", "FORBIDDEN", "allow"],
  ] as const)("rule %s", (rule, ...expected) => {
    expect(roles.map((r) => verdict(r ? as(r) : null, RULES[rule]))).toEqual(expected);
  });

  it.each([
    // owner of the job, anonymous, viewer, artist (usr-me), wrangler, admin
    ["the caller", "usr-me", "UNAUTHORIZED", "FORBIDDEN", "allow", "allow", "allow"],
    ["someone else", "usr-other", "UNAUTHORIZED", "FORBIDDEN", "FORBIDDEN", "allow", "allow"],
    ["nobody (from before accounts)", null, "UNAUTHORIZED", "FORBIDDEN", "FORBIDDEN", "allow", "allow"],
  ] as const)("ownJob on a job owned by %s", (_who, owner, ...expected) => {
    expect(roles.map((r) => verdict(r ? as(r) : null, RULES.ownJob, owner))).toEqual(expected);
  });

  it("ownTemplate: an artist saves a new name (owner not known yet) and their own, not someone else's", () => {
    const rule: Rule = { kind: "ownTemplate", key: "name" };
    expect(verdict(as("artist"), rule, undefined)).toBe("allow");
    expect(verdict(as("artist"), rule, "usr-me")).toBe("allow");
    expect(verdict(as("artist"), rule, "usr-other")).toBe("FORBIDDEN");
    expect(verdict(as("viewer"), rule, undefined)).toBe("FORBIDDEN");
    expect(verdict(as("wrangler"), rule, "usr-other")).toBe("allow");
  });

  it.each([
    // scope of an admin's token, read, submit, wrangle, admin rules
    ["read", "allow", "FORBIDDEN", "FORBIDDEN", "FORBIDDEN"],
    ["submit", "allow", "allow", "allow", "FORBIDDEN"],
    ["admin", "allow", "allow", "allow", "allow"],
  ] as const)("an admin's %s-scoped token", (scope, ...expected) => {
    expect((["read", "submit", "wrangle", "admin"] as const).map((rule) => verdict(as("admin", scope), RULES[rule]))).toEqual(expected);
  });

  it("a read-scoped token cannot act on its owner's own job; a submit-scoped one can", () => {
    expect(verdict(as("artist", "read"), RULES.ownJob, "usr-me")).toBe("FORBIDDEN");
    expect(verdict(as("artist", "submit"), RULES.ownJob, "usr-me")).toBe("allow");
    expect(verdict(as("artist", "submit"), RULES.ownJob, "usr-other")).toBe("FORBIDDEN");
  });

  it("says why, and names the token's scope when the scope is what refused", () => {
    expect(decide(null, RULES.read)).toMatchObject({ ok: false, message: expect.stringContaining("sign in first") });
    expect(decide(as("viewer"), RULES.admin)).toMatchObject({ ok: false, message: "this needs the admin role or higher; you are a viewer" });
    expect(decide(as("admin", "read"), RULES.submit)).toMatchObject({ ok: false, message: "this needs the artist role or higher; you are a viewer (this token's scope is 'read')" });
    expect(decide(as("artist"), RULES.ownJob, "usr-other")).toMatchObject({ ok: false, message: expect.stringContaining("someone else's") });
  });
});

describe("mayActOnJob and maxPriorityFor", () => {
  it("offers job actions as the server would decide them", () => {
    expect(mayActOnJob(null, "usr-me")).toBe(false);
    expect(mayActOnJob(as("artist"), "usr-me")).toBe(true);
    expect(mayActOnJob(as("artist"), "usr-other")).toBe(false);
    expect(mayActOnJob(as("artist"), null)).toBe(false);
    expect(mayActOnJob(as("wrangler"), null)).toBe(true);
  });

  it.each([
    ["viewer", null, 70],
    ["artist", null, 70],
    ["wrangler", null, 100],
    ["admin", null, 100],
    ["admin", "submit", 100],
    ["admin", "read", 70],
    ["artist", "admin", 70],
  ] as const)("%s (scope %s) may set priorities up to %i", (role, scope, max) => {
    expect(maxPriorityFor(as(role, scope))).toBe(max);
  });
});

describe("roles, names and passwords", () => {
  it("orders the roles", () => {
    expect(roleAtLeast("admin", "viewer")).toBe(true);
    expect(roleAtLeast("artist", "wrangler")).toBe(false);
    expect(roleAtLeast("wrangler", "wrangler")).toBe(true);
  });

  it.each([
    ["ab", false],
    ["abc", true],
    ["j.doe-2_x", true],
    ["-lead", false],
    ["has space", false],
    ["a".repeat(64), true],
    ["a".repeat(65), false],
  ] as const)("user name %s: %s", (name, ok) => {
    expect(USER_NAME.test(name)).toBe(ok);
  });

  it("refuses short, huge and name-containing passwords", () => {
    expect(passwordProblem("short", "alice")).toMatch(/at least 10/);
    expect(passwordProblem("x".repeat(1025), "alice")).toMatch(/at most 1024/);
    expect(passwordProblem("my-ALICE-password", "alice")).toMatch(/user name/);
    expect(passwordProblem("correct horse battery", "alice")).toBeNull();
  });
});

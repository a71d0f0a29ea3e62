import { describe, expect, it } from "vitest";
import { TOKEN_MAX_DAYS } from "@/server/auth/access-tokens";
import { DEFAULT_EXPIRY_DAYS, defaultScope, EXPIRY_CHOICES, expiryText, scopesFor, tokenState } from "./token-choices";

describe("expiry choices", () => {
  it("stay within what the server accepts, and include the default", () => {
    for (const choice of EXPIRY_CHOICES) expect(choice.days).toBeGreaterThanOrEqual(1);
    for (const choice of EXPIRY_CHOICES) expect(choice.days).toBeLessThanOrEqual(TOKEN_MAX_DAYS);
    expect(EXPIRY_CHOICES.map((c) => c.days)).toContain(DEFAULT_EXPIRY_DAYS);
  });
});

describe("scopesFor / defaultScope", () => {
  it.each([
    ["viewer", ["read"], "read"],
    ["artist", ["read", "submit"], "submit"],
    ["wrangler", ["read", "submit"], "submit"],
    ["admin", ["read", "submit", "admin"], "submit"],
  ] as const)("%s", (role, scopes, chosen) => {
    expect(scopesFor(role)).toEqual(scopes);
    expect(defaultScope(role)).toBe(chosen);
  });
});

const NOW = Date.UTC(2026, 0, 10, 12);
const HOUR = 3_600_000;

describe("tokenState", () => {
  it.each<[string, { expiresAt: number | null; revokedAt: number | null }, string]>([
    ["never expires", { expiresAt: null, revokedAt: null }, "active"],
    ["expires later", { expiresAt: NOW + 1, revokedAt: null }, "active"],
    ["expired just now", { expiresAt: NOW, revokedAt: null }, "expired"],
    ["revoked beats expired", { expiresAt: NOW - 1, revokedAt: NOW - 2 }, "revoked"],
  ])("%s", (_case, token, state) => {
    expect(tokenState(token, NOW)).toBe(state);
  });
});

describe("expiryText", () => {
  it.each<[number | null, string]>([
    [null, "never"],
    [NOW + 90 * 24 * HOUR, "in 90 days"],
    [NOW + 24 * HOUR, "in 1 day"],
    [NOW + 5 * HOUR + 59 * 60_000, "in 6 hours"],
    [NOW + 30 * 24 * HOUR - 5_000, "in 30 days"],
    [NOW + 30_000, "in 1 minute"],
    [NOW - 2 * 24 * HOUR, "2 days ago"],
  ])("%s", (expiresAt, text) => {
    expect(expiryText(expiresAt, NOW)).toBe(text);
  });
});

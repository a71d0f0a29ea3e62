/**
 * The choices of the new-token form and how a token's dates read in its list. A scope can only
 * narrow what the owner's role allows (lib/farm/access effectiveRole), so a viewer is offered
 * `read` only and the `admin` scope is offered to admins only (the server refuses it to others).
 * Pure: `now` is passed in.
 */
import { roleAtLeast, type Role, type TokenScope } from "@/lib/farm/access";

/** server/auth/access-tokens.ts TOKEN_MAX_DAYS bounds these (a test checks). */
export const EXPIRY_CHOICES = [
  { days: 7, label: "7 days" },
  { days: 30, label: "30 days" },
  { days: 90, label: "90 days" },
  { days: 366, label: "1 year" },
] as const;
export const DEFAULT_EXPIRY_DAYS = 90;

export const SCOPE_LABELS: Record<TokenScope, string> = {
  read: "read: look, never change",
  submit: "submit: also submit and act on jobs",
  admin: "admin: everything your role allows",
};

export function scopesFor(role: Role): TokenScope[] {
  if (roleAtLeast(role, "admin")) return ["read", "submit", "admin"];
  if (roleAtLeast(role, "artist")) return ["read", "submit"];
  return ["read"];
}

/** `submit` where offered (what `loom login` asks for too), else the widest offered. */
export function defaultScope(role: Role): TokenScope {
  const scopes = scopesFor(role);
  return scopes.includes("submit") ? "submit" : scopes[scopes.length - 1]!;
}

export type TokenState = "active" | "expired" | "revoked";

export function tokenState(token: { expiresAt: number | null; revokedAt: number | null }, now: number): TokenState {
  if (token.revokedAt !== null) return "revoked";
  if (token.expiresAt !== null && token.expiresAt <= now) return "expired";
  return "active";
}

const DAY_MS = 86_400_000;

/** "in 3 days", "in 5 hours", "never", "2 days ago": how far off an expiry is. */
export function expiryText(expiresAt: number | null, now: number): string {
  if (expiresAt === null) return "never";
  const ms = expiresAt - now;
  const abs = Math.abs(ms);
  // Rounded: a token made for 30 days, read a moment later, expires "in 30 days", not 29.
  const amount = abs >= DAY_MS ? plural(Math.round(abs / DAY_MS), "day") : abs >= 3_600_000 ? plural(Math.round(abs / 3_600_000), "hour") : plural(Math.max(1, Math.round(abs / 60_000)), "minute");
  return ms > 0 ? `in ${amount}` : `${amount} ago`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

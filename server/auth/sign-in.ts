/**
 * Signing in and out. A sign-in checks the rate limits first (failed attempts in the last
 * window, per account and per address, counted from the audit log itself), then the password;
 * every attempt, good or bad, is an audit row. The reply never says whether the name exists.
 */
import type { TokenScope } from "../../lib/farm/access";
import { audit, type Actor } from "../services/audit";
import { AppError } from "../context/errors";
import type { Farm } from "../context/farm";
import { auditLogRepository } from "../store/audit-log";
import { authSessionsRepository } from "../store/auth-sessions";
import { issueToken, type IssuedToken } from "./access-tokens";
import { findUserByName } from "./accounts";
import { verifyPassword } from "./passwords";
import type { RequestOrigin } from "./principal";
import { hashSecret, newId, newSecret } from "./secrets";
import { accessChanged } from "./streams";

const REFUSED = "wrong user name or password";

/**
 * Sign-ins whose password check is still running, per account and per address. They count as
 * failures until they end: failures are counted from the audit log, which holds an attempt only
 * once its check is done, so a burst of parallel attempts would otherwise all pass the limit.
 */
const checking = new WeakMap<Farm, Map<string, number>>();

function inFlight(farm: Farm, keys: readonly string[], change: 1 | -1): void {
  let map = checking.get(farm);
  if (!map) checking.set(farm, (map = new Map()));
  for (const key of keys) {
    const n = (map.get(key) ?? 0) + change;
    if (n <= 0) map.delete(key);
    else map.set(key, n);
  }
}

function checkingNow(farm: Farm, key: string): number {
  return checking.get(farm)?.get(key) ?? 0;
}

/** Refused sign-ins of an account (its name) or from an address since `since`, counted up to that limit. */
export function recentFailures(farm: Farm, by: "account" | "address", key: string, since: number): number {
  const log = auditLogRepository(farm.store);
  return by === "account" ? log.countRefusedSignInsFor(key, since, farm.settings.loginFailuresPerAccount) : log.countRefusedSignInsFrom(key, since, farm.settings.loginFailuresPerAddress);
}

export interface SignInInput {
  name: string;
  password: string;
}

/** The account, once its name and password have been checked (and nothing was rate-limited). */
async function checkPassword(farm: Farm, input: SignInInput, origin: RequestOrigin, how: string) {
  const since = farm.now() - farm.settings.loginWindowMinutes * 60_000;
  const anonymous: Actor = { kind: "anonymous", id: null, name: input.name.slice(0, 64) || "(empty)", via: how, address: origin.address, userAgent: origin.userAgent };
  // Names match without regard to case: the limits count per account, however its name was typed.
  const user = findUserByName(farm, input.name);
  const target = { kind: "user", id: user?.name ?? input.name.slice(0, 64) };
  const refuse = (message: string, detail: string, code: "UNAUTHORIZED" | "TOO_MANY_REQUESTS" = "UNAUTHORIZED"): never => {
    audit(farm, anonymous, { action: "auth.sign-in", target, outcome: "refused", detail });
    throw new AppError(code, message);
  };
  const minutes = farm.settings.loginWindowMinutes;
  const keys = [`account:${target.id.toLowerCase()}`, ...(origin.address ? [`address:${origin.address}`] : [])];
  if (recentFailures(farm, "account", target.id, since) + checkingNow(farm, keys[0]!) >= farm.settings.loginFailuresPerAccount) {
    refuse(`too many failed sign-ins for this account; try again in ${minutes} minutes`, "rate-limited (account)", "TOO_MANY_REQUESTS");
  }
  if (origin.address && recentFailures(farm, "address", origin.address, since) + checkingNow(farm, keys[1]!) >= farm.settings.loginFailuresPerAddress) {
    refuse(`too many failed sign-ins from this address; try again in ${minutes} minutes`, "rate-limited (address)", "TOO_MANY_REQUESTS");
  }
  inFlight(farm, keys, 1);
  let ok: boolean;
  try {
    ok = await verifyPassword(input.password, user?.password_hash ?? null);
  } finally {
    inFlight(farm, keys, -1);
  }
  if (!user || !ok) return refuse(REFUSED, user ? "wrong password" : "no such account");
  if (user.disabled) return refuse(REFUSED, "account disabled");
  return { user, actor: { kind: "user", id: user.id, name: user.name, via: how, address: origin.address, userAgent: origin.userAgent } satisfies Actor };
}

export interface SignedIn {
  /** The cookie's value (shown to nobody: it goes in an httpOnly cookie). */
  cookie: string;
  expiresAt: number;
  userId: string;
}

/** A browser sign-in: a new session. */
export async function signIn(farm: Farm, input: SignInInput, origin: RequestOrigin): Promise<SignedIn> {
  const { user, actor } = await checkPassword(farm, input, origin, "password");
  return farm.store.transaction(() => startSession(farm, user.id, actor, origin));
}

/** Inside a transaction: a session for `userId`, and its audit row. */
export function startSession(farm: Farm, userId: string, actor: Actor, origin: RequestOrigin): SignedIn {
  const now = farm.now();
  const cookie = newSecret("session");
  const expiresAt = now + farm.settings.sessionMaxDays * 24 * 3_600_000;
  const id = newId("ses");
  authSessionsRepository(farm.store).insert({ id, tokenHash: hashSecret(cookie), userId, now, expiresAt, address: origin.address, userAgent: origin.userAgent?.slice(0, 300) ?? null });
  audit(farm, actor, { action: "auth.sign-in", target: { kind: "user", id: actor.name }, detail: `session ${id}` });
  return { cookie, expiresAt, userId };
}

/** `loom login`: name and password for a token stored on the user's machine. */
export async function signInForToken(farm: Farm, input: SignInInput & { tokenName: string; scope: TokenScope; expiresInDays: number }, origin: RequestOrigin): Promise<IssuedToken> {
  const { user, actor } = await checkPassword(farm, input, origin, "password (loom login)");
  return farm.store.transaction(() => {
    audit(farm, actor, { action: "auth.sign-in", target: { kind: "user", id: user.name }, detail: "for a token (loom login)" });
    return issueToken(farm, actor, { userId: user.id, role: user.role, name: input.tokenName, scope: input.scope, expiresInDays: input.expiresInDays });
  });
}

export function signOut(farm: Farm, actor: Actor, sessionId: string): void {
  farm.store.transaction(() => {
    if (authSessionsRepository(farm.store).revoke(sessionId, farm.now())) audit(farm, actor, { action: "auth.sign-out", target: { kind: "user", id: actor.name } });
  });
  accessChanged(farm);
}

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
import type { ReadTx, Tx } from "../store/repository";
import { usersRepository } from "../store/users";
import { issueToken, type IssuedToken } from "./access-tokens";
import { verifyPassword } from "./passwords";
import type { RequestOrigin } from "./principal";
import { hashSecret, newId, newSecret } from "./secrets";
import { accessChanged } from "./streams";

const REFUSED = "wrong user name or password";

/**
 * Sign-ins whose password check is still running, per account and per address. They count as
 * failures until they end (a refused one until its audit row is stored): failures are counted
 * from the audit log, which holds an attempt only once its check is done, so a burst of parallel
 * attempts would otherwise all pass the limit.
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
export function recentFailures(farm: Farm, by: "account" | "address", key: string, since: number): Promise<number> {
  return farm.store.read((tx) => recentFailuresIn(tx, farm, by, key, since));
}

/** recentFailures, in the caller's unit. */
function recentFailuresIn(tx: ReadTx, farm: Farm, by: "account" | "address", key: string, since: number): Promise<number> {
  return by === "account"
    ? auditLogRepository.countRefusedSignInsFor(tx, key, since, farm.settings.loginFailuresPerAccount)
    : auditLogRepository.countRefusedSignInsFrom(tx, key, since, farm.settings.loginFailuresPerAddress);
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
  const { user, accountFailures, addressFailures } = await farm.store.read(
    async (tx) => {
      const user = await usersRepository.byName(tx, input.name);
      return {
        user,
        accountFailures: await recentFailuresIn(tx, farm, "account", user?.name ?? input.name.slice(0, 64), since),
        addressFailures: origin.address ? await recentFailuresIn(tx, farm, "address", origin.address, since) : 0,
      };
    },
    { consistent: true },
  );
  const target = { kind: "user", id: user?.name ?? input.name.slice(0, 64) };
  const refuse = async (message: string, detail: string, code: "UNAUTHORIZED" | "TOO_MANY_REQUESTS" = "UNAUTHORIZED"): Promise<never> => {
    await farm.store.transaction((tx) => audit(tx, farm, anonymous, { action: "auth.sign-in", target, outcome: "refused", detail }));
    throw new AppError(code, message);
  };
  const minutes = farm.settings.loginWindowMinutes;
  const keys = [`account:${target.id.toLowerCase()}`, ...(origin.address ? [`address:${origin.address}`] : [])];
  // No await from these checks to inFlight(+1): every attempt checked after this one counts it.
  if (accountFailures + checkingNow(farm, keys[0]!) >= farm.settings.loginFailuresPerAccount) {
    return refuse(`too many failed sign-ins for this account; try again in ${minutes} minutes`, "rate-limited (account)", "TOO_MANY_REQUESTS");
  }
  if (origin.address && addressFailures + checkingNow(farm, keys[1]!) >= farm.settings.loginFailuresPerAddress) {
    return refuse(`too many failed sign-ins from this address; try again in ${minutes} minutes`, "rate-limited (address)", "TOO_MANY_REQUESTS");
  }
  inFlight(farm, keys, 1);
  try {
    const ok = await verifyPassword(input.password, user?.password_hash ?? null);
    // A refused attempt stays in flight until its audit row is stored: the limits count from that row.
    if (!user || !ok) return await refuse(REFUSED, user ? "wrong password" : "no such account");
    if (user.disabled) return await refuse(REFUSED, "account disabled");
    return { user, actor: { kind: "user", id: user.id, name: user.name, via: how, address: origin.address, userAgent: origin.userAgent } satisfies Actor };
  } finally {
    inFlight(farm, keys, -1);
  }
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
  return farm.store.transaction((tx) => startSession(tx, farm, user.id, actor, origin));
}

/** Inside the caller's unit: a session for `userId`, and its audit row. */
export async function startSession(tx: Tx, farm: Farm, userId: string, actor: Actor, origin: RequestOrigin): Promise<SignedIn> {
  const now = farm.now();
  const cookie = newSecret("session");
  const expiresAt = now + farm.settings.sessionMaxDays * 24 * 3_600_000;
  const id = newId("ses");
  await authSessionsRepository.insert(tx, { id, tokenHash: hashSecret(cookie), userId, now, expiresAt, address: origin.address, userAgent: origin.userAgent?.slice(0, 300) ?? null });
  await audit(tx, farm, actor, { action: "auth.sign-in", target: { kind: "user", id: actor.name }, detail: `session ${id}` });
  return { cookie, expiresAt, userId };
}

/** `loom login`: name and password for a token stored on the user's machine. */
export async function signInForToken(farm: Farm, input: SignInInput & { tokenName: string; scope: TokenScope; expiresInDays: number }, origin: RequestOrigin): Promise<IssuedToken> {
  const { user, actor } = await checkPassword(farm, input, origin, "password (loom login)");
  return farm.store.transaction(async (tx) => {
    await audit(tx, farm, actor, { action: "auth.sign-in", target: { kind: "user", id: user.name }, detail: "for a token (loom login)" });
    return issueToken(tx, farm, actor, { userId: user.id, role: user.role, name: input.tokenName, scope: input.scope, expiresInDays: input.expiresInDays });
  });
}

export async function signOut(farm: Farm, actor: Actor, sessionId: string): Promise<void> {
  await farm.store.transaction(async (tx) => {
    if (await authSessionsRepository.revoke(tx, sessionId, farm.now())) await audit(tx, farm, actor, { action: "auth.sign-out", target: { kind: "user", id: actor.name } });
  });
  accessChanged(farm);
}

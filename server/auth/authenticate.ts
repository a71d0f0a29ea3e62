/**
 * Turning a request's credential into a Principal: a personal access token sent as
 * `Authorization: Bearer <token>`, or the browser's session cookie. A credential that is
 * present but not valid (unknown, expired, revoked, its account disabled) is an error, not an
 * anonymous call, so a script with a stale token hears why. Last-use times are written at most
 * once a minute per credential: a busy portal does not turn every read into a write.
 */
import { AppError } from "../context/errors";
import type { Farm } from "../context/farm";
import { accessTokensRepository } from "../store/access-tokens";
import { authSessionsRepository } from "../store/auth-sessions";
import type { Principal } from "./principal";
import { hashSecret, SECRET_PREFIXES } from "./secrets";

export const SESSION_COOKIE = "loom_session";

/** How often last-used and last-seen times are written. */
const TOUCH_EVERY_MS = 60_000;

export interface Credentials {
  authorization: string | null;
  /** The session cookie's value, when the request carries one. */
  sessionCookie: string | null;
  address: string | null;
}

/** The bearer token of an Authorization header, or null when there is none. */
export function bearerToken(header: string | null): string | null {
  if (!header) return null;
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (!match) throw new AppError("UNAUTHORIZED", "the Authorization header must be 'Bearer <token>'");
  return match[1]!;
}

/**
 * The caller, or null for an anonymous request (no credential at all). The credential is read
 * alone; the touch, when one is due, is a short write of its own.
 */
export async function authenticate(farm: Farm, credentials: Credentials): Promise<Principal | null> {
  const token = bearerToken(credentials.authorization);
  if (token !== null) return authenticateToken(farm, token, credentials.address);
  if (credentials.sessionCookie) return authenticateSession(farm, credentials.sessionCookie);
  return null;
}

async function authenticateToken(farm: Farm, token: string, address: string | null): Promise<Principal> {
  if (!token.startsWith(SECRET_PREFIXES.token)) {
    throw new AppError("UNAUTHORIZED", token.startsWith("loom_") ? "this is not a personal access token (pool and worker tokens reach only the worker API)" : "unknown token");
  }
  const row = await farm.store.read((tx) => accessTokensRepository.credentialByTokenHash(tx, hashSecret(token)));
  const now = farm.now();
  if (!row) throw new AppError("UNAUTHORIZED", "unknown token (it may have been deleted); create a new one, or run 'loom login'");
  if (row.revoked_at !== null) throw new AppError("UNAUTHORIZED", "this token was revoked; create a new one, or run 'loom login'");
  if (row.expires_at !== null && row.expires_at <= now) throw new AppError("UNAUTHORIZED", "this token has expired; create a new one, or run 'loom login'");
  if (row.disabled) throw new AppError("UNAUTHORIZED", `the account '${row.name}' is disabled`);
  if (row.touched_at === null || now - row.touched_at >= TOUCH_EVERY_MS) await farm.store.transaction((tx) => accessTokensRepository.touch(tx, row.id, now, address));
  return { userId: row.user_id, name: row.name, role: row.role, kind: row.kind, scope: row.scope, via: "token", credentialId: row.id };
}

async function authenticateSession(farm: Farm, cookie: string): Promise<Principal | null> {
  const row = await farm.store.read((tx) => authSessionsRepository.credentialByTokenHash(tx, hashSecret(cookie)));
  const now = farm.now();
  // A stale cookie is not worth an error: the browser is simply signed out.
  if (!row || row.revoked_at !== null || row.expires_at === null || row.expires_at <= now || row.disabled) return null;
  const idleMs = farm.settings.sessionIdleMinutes * 60_000;
  if (row.touched_at !== null && now - row.touched_at > idleMs) return null;
  if (row.touched_at === null || now - row.touched_at >= TOUCH_EVERY_MS) await farm.store.transaction((tx) => authSessionsRepository.touch(tx, row.id, now));
  return { userId: row.user_id, name: row.name, role: row.role, kind: row.kind, scope: null, via: "session", credentialId: row.id };
}

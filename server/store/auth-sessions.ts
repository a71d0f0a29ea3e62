/**
 * Browser sessions (the auth_sessions table): made by a sign-in, looked up by the hash of the
 * cookie on every request, ended by signing out or by the account being disabled or its
 * password set.
 */
import type { authSessions, users } from "../db/schema";
import { repository } from "./repository";
import type { RawPick } from "./rows";

/** A session and its account, as a request's cookie finds them; touched_at is when it was last seen. */
export type SessionCredential = RawPick<typeof authSessions, "id" | "user_id" | "expires_at" | "revoked_at"> & RawPick<typeof users, "name" | "role" | "kind" | "disabled"> & { touched_at: number };

export interface NewSessionRow {
  id: string;
  tokenHash: string;
  userId: string;
  now: number;
  expiresAt: number;
  address: string | null;
  userAgent: string | null;
}

export const authSessionsRepository = repository((sqlite) => {
  const insert = sqlite.prepare<[string, string, string, number, number, number, string | null, string | null]>(
    "INSERT INTO auth_sessions (id, token_hash, user_id, created_at, last_seen_at, expires_at, address, user_agent) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const revoke = sqlite.prepare<[number, string]>("UPDATE auth_sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL");
  const revokeAllOfUser = sqlite.prepare<[number, string]>("UPDATE auth_sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL");
  const byTokenHash = sqlite.prepare<[string], SessionCredential>(
    `SELECT s.id, s.user_id, u.name, u.role, u.kind, u.disabled, s.expires_at, s.revoked_at, s.last_seen_at AS touched_at
     FROM auth_sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?`,
  );
  const touch = sqlite.prepare<[number, string]>("UPDATE auth_sessions SET last_seen_at = ? WHERE id = ?");
  return {
    /** A new session, last seen when it was made. */
    insert(session: NewSessionRow): void {
      insert.run(session.id, session.tokenHash, session.userId, session.now, session.now, session.expiresAt, session.address, session.userAgent);
    },
    /** Whether it ended now (false: unknown, or revoked already). */
    revoke: (id: string, now: number): boolean => revoke.run(now, id).changes > 0,
    revokeAllOfUser(userId: string, now: number): void {
      revokeAllOfUser.run(now, userId);
    },
    credentialByTokenHash: (tokenHash: string): SessionCredential | undefined => byTokenHash.get(tokenHash),
    touch(id: string, now: number): void {
      touch.run(now, id);
    },
  };
});

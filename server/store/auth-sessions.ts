/**
 * Browser sessions (the auth_sessions table): made by a sign-in, looked up by the hash of the
 * cookie on every request, ended by signing out or by the account being disabled or its
 * password set.
 */
import type { RunResult } from "./engine/engine";
import type { authSessions, users } from "../db/schema";
import type { ReadTx, Tx } from "./repository";
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

const INSERT = "INSERT INTO auth_sessions (id, token_hash, user_id, created_at, last_seen_at, expires_at, address, user_agent) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
const REVOKE = "UPDATE auth_sessions SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL";
const REVOKE_ALL_OF_USER = "UPDATE auth_sessions SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL";
const BY_TOKEN_HASH = `SELECT s.id, s.user_id, u.name, u.role, u.kind, u.disabled, s.expires_at, s.revoked_at, s.last_seen_at AS touched_at
   FROM auth_sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ?`;
const TOUCH = "UPDATE auth_sessions SET last_seen_at = ? WHERE id = ?";

export const authSessionsRepository = {
  /** A new session, last seen when it was made. */
  insert(tx: Tx, session: NewSessionRow): Promise<RunResult> {
    return tx.run(INSERT, [session.id, session.tokenHash, session.userId, session.now, session.now, session.expiresAt, session.address, session.userAgent]);
  },
  /** Whether it ended now (false: unknown, or revoked already). */
  revoke: async (tx: Tx, id: string, now: number): Promise<boolean> => (await tx.run(REVOKE, [now, id])).changes > 0,
  revokeAllOfUser(tx: Tx, userId: string, now: number): Promise<RunResult> {
    return tx.run(REVOKE_ALL_OF_USER, [now, userId]);
  },
  credentialByTokenHash: (tx: ReadTx, tokenHash: string): Promise<SessionCredential | undefined> => tx.get<SessionCredential>(BY_TOKEN_HASH, [tokenHash]),
  touch(tx: Tx, id: string, now: number): Promise<RunResult> {
    return tx.run(TOUCH, [now, id]);
  },
};

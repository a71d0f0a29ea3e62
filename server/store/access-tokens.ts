/**
 * Personal access tokens (the access_tokens table): made, listed with their owner's name,
 * revoked, and looked up by the hash of the token on every request that sends one.
 */
import type { TokenScope } from "../../lib/farm/access";
import type { accessTokens, users } from "../db/schema";
import { repository } from "./repository";
import type { RawPick } from "./rows";

/** A token as its lists show it, with its owner's name. */
export type TokenListRow = RawPick<typeof accessTokens, "id" | "name" | "scope" | "user_id" | "created_at" | "expires_at" | "last_used_at" | "last_used_address" | "revoked_at"> & { owner: string };

/** A token and its account, as a request's bearer token finds them; touched_at is when it was last used. */
export type TokenCredential = RawPick<typeof accessTokens, "id" | "user_id" | "expires_at" | "revoked_at" | "scope"> &
  RawPick<typeof users, "name" | "role" | "kind" | "disabled"> & { touched_at: number | null };

/** Whether a token still works, as the data folder's local-admin token is checked at start. */
export type TokenState = RawPick<typeof accessTokens, "revoked_at" | "expires_at"> & RawPick<typeof users, "disabled">;

export interface NewTokenRow {
  id: string;
  userId: string;
  name: string;
  tokenHash: string;
  scope: TokenScope;
  now: number;
  expiresAt: number | null;
}

const LISTED = `SELECT t.id, t.name, t.scope, u.name AS owner, t.user_id, t.created_at, t.expires_at, t.last_used_at, t.last_used_address, t.revoked_at
  FROM access_tokens t JOIN users u ON u.id = t.user_id`;

export const accessTokensRepository = repository((sqlite) => {
  const insert = sqlite.prepare<[string, string, string, string, TokenScope, number, number | null]>(
    "INSERT INTO access_tokens (id, user_id, name, token_hash, scope, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
  );
  const ofUser = sqlite.prepare<[string], TokenListRow>(`${LISTED} WHERE t.user_id = ? ORDER BY t.created_at DESC`);
  const all = sqlite.prepare<[], TokenListRow>(`${LISTED} ORDER BY t.created_at DESC LIMIT 2000`);
  const byId = sqlite.prepare<[string], TokenListRow>(`${LISTED} WHERE t.id = ?`);
  const revoke = sqlite.prepare<[number, string]>("UPDATE access_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL");
  const revokeAllOfUser = sqlite.prepare<[number, string]>("UPDATE access_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL");
  const byTokenHash = sqlite.prepare<[string], TokenCredential>(
    `SELECT t.id, t.user_id, u.name, u.role, u.kind, u.disabled, t.expires_at, t.revoked_at, t.last_used_at AS touched_at, t.scope
     FROM access_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = ?`,
  );
  const touch = sqlite.prepare<[number, string | null, string]>("UPDATE access_tokens SET last_used_at = ?, last_used_address = ? WHERE id = ?");
  const stateByTokenHash = sqlite.prepare<[string], TokenState>("SELECT t.revoked_at, t.expires_at, u.disabled FROM access_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = ?");
  return {
    insert(token: NewTokenRow): void {
      insert.run(token.id, token.userId, token.name, token.tokenHash, token.scope, token.now, token.expiresAt);
    },
    /** A user's tokens, newest first. */
    ofUser: (userId: string): TokenListRow[] => ofUser.all(userId),
    /** Everyone's tokens, newest first (the newest 2,000). */
    all: (): TokenListRow[] => all.all(),
    byId: (id: string): TokenListRow | undefined => byId.get(id),
    /** Whether it was revoked now (false: unknown, or revoked already). */
    revoke: (id: string, now: number): boolean => revoke.run(now, id).changes > 0,
    revokeAllOfUser(userId: string, now: number): void {
      revokeAllOfUser.run(now, userId);
    },
    credentialByTokenHash: (tokenHash: string): TokenCredential | undefined => byTokenHash.get(tokenHash),
    /** Records a use: when, and from which address. */
    touch(id: string, now: number, address: string | null): void {
      touch.run(now, address, id);
    },
    stateByTokenHash: (tokenHash: string): TokenState | undefined => stateByTokenHash.get(tokenHash),
  };
});

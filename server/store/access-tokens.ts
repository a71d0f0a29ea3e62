/**
 * Personal access tokens (the access_tokens table): made, listed with their owner's name,
 * revoked, and looked up by the hash of the token on every request that sends one.
 */
import type { RunResult } from "./engine/engine";
import type { TokenScope } from "../../lib/farm/access";
import type { accessTokens, users } from "../db/schema";
import type { ReadTx, Tx } from "./repository";
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

const INSERT = "INSERT INTO access_tokens (id, user_id, name, token_hash, scope, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)";
const OF_USER = `${LISTED} WHERE t.user_id = ? ORDER BY t.created_at DESC`;
const ALL = `${LISTED} ORDER BY t.created_at DESC LIMIT 2000`;
const BY_ID = `${LISTED} WHERE t.id = ?`;
const REVOKE = "UPDATE access_tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL";
const REVOKE_ALL_OF_USER = "UPDATE access_tokens SET revoked_at = ? WHERE user_id = ? AND revoked_at IS NULL";
const BY_TOKEN_HASH = `SELECT t.id, t.user_id, u.name, u.role, u.kind, u.disabled, t.expires_at, t.revoked_at, t.last_used_at AS touched_at, t.scope
   FROM access_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = ?`;
const TOUCH = "UPDATE access_tokens SET last_used_at = ?, last_used_address = ? WHERE id = ?";
const STATE_BY_TOKEN_HASH = "SELECT t.revoked_at, t.expires_at, u.disabled FROM access_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = ?";

export const accessTokensRepository = {
  insert(tx: Tx, token: NewTokenRow): Promise<RunResult> {
    return tx.run(INSERT, [token.id, token.userId, token.name, token.tokenHash, token.scope, token.now, token.expiresAt]);
  },
  /** A user's tokens, newest first. */
  ofUser: (tx: ReadTx, userId: string): Promise<TokenListRow[]> => tx.all<TokenListRow>(OF_USER, [userId]),
  /** Everyone's tokens, newest first (the newest 2,000). */
  all: (tx: ReadTx): Promise<TokenListRow[]> => tx.all<TokenListRow>(ALL),
  byId: (tx: ReadTx, id: string): Promise<TokenListRow | undefined> => tx.get<TokenListRow>(BY_ID, [id]),
  /** Whether it was revoked now (false: unknown, or revoked already). */
  revoke: async (tx: Tx, id: string, now: number): Promise<boolean> => (await tx.run(REVOKE, [now, id])).changes > 0,
  revokeAllOfUser(tx: Tx, userId: string, now: number): Promise<RunResult> {
    return tx.run(REVOKE_ALL_OF_USER, [now, userId]);
  },
  credentialByTokenHash: (tx: ReadTx, tokenHash: string): Promise<TokenCredential | undefined> => tx.get<TokenCredential>(BY_TOKEN_HASH, [tokenHash]),
  /** Records a use: when, and from which address. */
  touch(tx: Tx, id: string, now: number, address: string | null): Promise<RunResult> {
    return tx.run(TOUCH, [now, address, id]);
  },
  stateByTokenHash: (tx: ReadTx, tokenHash: string): Promise<TokenState | undefined> => tx.get<TokenState>(STATE_BY_TOKEN_HASH, [tokenHash]),
};

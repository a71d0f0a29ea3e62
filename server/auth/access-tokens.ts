/**
 * Personal access tokens: what scripts and the `loom` command send as `Authorization: Bearer`.
 * Shown once when made, stored as sha256, with a name, a scope, an expiry and the last time and
 * address it was used; revocable by its owner or an admin.
 */
import { effectiveRole, roleAtLeast, TOKEN_SCOPES, type Role, type TokenScope } from "../../lib/farm/access";
import { audit, type Actor } from "../services/audit";
import { AppError } from "../context/errors";
import type { Farm } from "../context/farm";
import { accessTokensRepository, type TokenListRow } from "../store/access-tokens";
import type { Tx } from "../store/repository";
import type { Principal } from "./principal";
import { hashSecret, newId, newSecret } from "./secrets";
import { accessChanged } from "./streams";

export const TOKEN_NAME_MAX = 100;
export const TOKEN_MAX_DAYS = 366;

export interface TokenView {
  id: string;
  name: string;
  scope: TokenScope;
  owner: string;
  createdAt: number;
  expiresAt: number | null;
  lastUsedAt: number | null;
  lastUsedAddress: string | null;
  revokedAt: number | null;
}

export interface IssuedToken {
  /** Shown once; only its hash is kept. */
  token: string;
  view: TokenView;
}

function view(row: TokenListRow): TokenView {
  return {
    id: row.id,
    name: row.name,
    scope: row.scope,
    owner: row.owner,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    lastUsedAddress: row.last_used_address,
    revokedAt: row.revoked_at,
  };
}

export interface NewToken {
  userId: string;
  /** The owner's role: a token's scope may not reach past it. */
  role: Role;
  name: string;
  scope: TokenScope;
  /** null: never expires (only for the local admin's token in the data folder). */
  expiresInDays: number | null;
  /** The token expires no later than this (the expiry of the token it is made with). */
  notAfter?: number;
}

/** Inside the caller's unit: a new token and its audit row. */
export async function issueToken(tx: Tx, farm: Farm, actor: Actor, input: NewToken): Promise<IssuedToken> {
  const name = input.name.trim();
  // eslint-disable-next-line no-control-regex
  if (name === "" || name.length > TOKEN_NAME_MAX || /[\u0000-\u001f\u007f]/.test(name))
    throw new AppError("BAD_REQUEST", `a token name is 1 to ${TOKEN_NAME_MAX} characters without control characters`);
  if (!(TOKEN_SCOPES as readonly string[]).includes(input.scope)) throw new AppError("BAD_REQUEST", `scope must be one of ${TOKEN_SCOPES.join(", ")}`);
  if (input.scope === "admin" && !roleAtLeast(input.role, "admin")) throw new AppError("FORBIDDEN", "only admins can make admin-scoped tokens");
  if (input.expiresInDays !== null && (!Number.isInteger(input.expiresInDays) || input.expiresInDays < 1 || input.expiresInDays > TOKEN_MAX_DAYS)) {
    throw new AppError("BAD_REQUEST", `a token expires after 1 to ${TOKEN_MAX_DAYS} days`);
  }
  const now = farm.now();
  const token = newSecret("token");
  const id = newId("tok");
  const asked = input.expiresInDays === null ? null : now + input.expiresInDays * 24 * 3_600_000;
  const expiresAt = input.notAfter !== undefined && (asked === null || asked > input.notAfter) ? input.notAfter : asked;
  await accessTokensRepository.insert(tx, { id, userId: input.userId, name, tokenHash: hashSecret(token), scope: input.scope, now, expiresAt });
  const row = (await accessTokensRepository.byId(tx, id))!;
  await audit(tx, farm, actor, { action: "token.create", target: { kind: "token", id }, after: { name, scope: input.scope, owner: row.owner, expiresAt } });
  return { token, view: view(row) };
}

/** A token for the caller themselves (the tokens page). */
export async function createOwnToken(farm: Farm, principal: Principal, actor: Actor, input: { name: string; scope: TokenScope; expiresInDays: number }): Promise<IssuedToken> {
  // A token made with a token cannot be wider than the token that made it: its scope, not only
  // the role, is compared (a `read` token of an admin acts as a viewer, but a `submit` token it
  // made would act as a wrangler).
  if (principal.scope !== null && TOKEN_SCOPES.indexOf(input.scope) > TOKEN_SCOPES.indexOf(principal.scope)) {
    throw new AppError("FORBIDDEN", `a token made with a '${principal.scope}' token can have at most that scope`);
  }
  const role = effectiveRole(principal.role, principal.scope);
  return farm.store.transaction(async (tx) => {
    // …nor outlive it: a leaked token could otherwise make itself a successor of a year.
    const parent = principal.via === "token" ? await accessTokensRepository.byId(tx, principal.credentialId) : undefined;
    const notAfter = parent?.expires_at ?? undefined;
    return issueToken(tx, farm, actor, { userId: principal.userId, role, ...input, ...(notAfter !== undefined ? { notAfter } : {}) });
  });
}

/** The caller's tokens; with `all` (admins) everyone's. */
export async function listTokens(farm: Farm, principal: Principal, all: boolean): Promise<TokenView[]> {
  const rows = await farm.store.read((tx) => (all ? accessTokensRepository.all(tx) : accessTokensRepository.ofUser(tx, principal.userId)));
  return rows.map(view);
}

/** Revokes a token of the caller's own, or any token when `asAdmin`. */
export async function revokeToken(farm: Farm, principal: Principal, actor: Actor, tokenId: string, asAdmin: boolean): Promise<TokenView> {
  const revoked = await farm.store.transaction(async (tx) => {
    const row = await accessTokensRepository.byId(tx, tokenId);
    if (!row || (!asAdmin && row.user_id !== principal.userId)) throw new AppError("NOT_FOUND", `no token ${tokenId} of yours`);
    if (await accessTokensRepository.revoke(tx, tokenId, farm.now()))
      await audit(tx, farm, actor, { action: "token.revoke", target: { kind: "token", id: tokenId }, before: { name: row.name, owner: row.owner } });
    return view((await accessTokensRepository.byId(tx, tokenId))!);
  });
  accessChanged(farm);
  return revoked;
}

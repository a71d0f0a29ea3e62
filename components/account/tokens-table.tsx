"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { formatTimestamp } from "@/lib/farm/display";
import type { TokenView } from "@/server/auth/access-tokens";
import { Ago } from "../admin/ago";
import { useTRPC } from "../trpc";
import { ConfirmButton } from "../ui/confirm-button";
import { useNow } from "../ui/use-now";
import { expiryText, tokenState } from "./token-choices";

const STATE_WORDS = { active: "Active", expired: "Expired", revoked: "Revoked" } as const;
const STATE_TONES = { active: "good", expired: "off", revoked: "off" } as const;

/** Your tokens, newest first: when each was last used and from where, and revoke. */
export function TokensTable() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.tokens.list.queryOptions());
  const revoke = useMutation(trpc.tokens.revoke.mutationOptions({ onSuccess: () => queryClient.invalidateQueries(trpc.tokens.list.queryFilter()) }));
  const now = useNow(true, 60_000);
  const tokens = list.data ?? [];
  return (
    <section aria-labelledby="tokens-title">
      <h2 className="admin-section-title" id="tokens-title">
        Your tokens
      </h2>
      {list.error && <p role="alert" className="error-text">Could not load your tokens: {list.error.message}</p>}
      {revoke.error && <p role="alert" className="error-text">Not revoked: {revoke.error.message}</p>}
      {list.data && tokens.length === 0 && <p className="muted">You have no tokens yet.</p>}
      {tokens.length > 0 && (
        <div className="table-scroll">
          <table className="data admin-table" aria-label="Your tokens">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Scope</th>
                <th scope="col">State</th>
                <th scope="col">Created</th>
                <th scope="col">Expires</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {tokens.map((token) => (
                <TokenRow key={token.id} token={token} now={now} busy={revoke.isPending} onRevoke={() => revoke.mutate({ tokenId: token.id })} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function TokenRow({ token, now, busy, onRevoke }: { token: TokenView; now: number; busy: boolean; onRevoke: () => void }) {
  const state = tokenState(token, now);
  return (
    <tr>
      <th scope="row">{token.name}</th>
      <td>{token.scope}</td>
      <td>
        <span className={`badge tone-${STATE_TONES[state]}`}>{STATE_WORDS[state]}</span>
      </td>
      <td>{formatTimestamp(token.createdAt)}</td>
      <td suppressHydrationWarning title={token.expiresAt === null ? undefined : formatTimestamp(token.expiresAt)}>
        {state === "revoked" ? <span className="muted">—</span> : expiryText(token.expiresAt, now)}
      </td>
      <td>
        <Ago at={token.lastUsedAt} />
        {token.lastUsedAddress && <div className="muted">from {token.lastUsedAddress}</div>}
      </td>
      <td>
        {state === "active" && (
          <ConfirmButton
            label="Revoke"
            danger
            question={`Revoke token ${token.name}? Scripts and machines using it are refused from their next call.`}
            confirmLabel={`Revoke ${token.name}`}
            disabled={busy}
            onConfirm={onRevoke}
          />
        )}
      </td>
    </tr>
  );
}

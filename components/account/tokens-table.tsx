"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { formatTimestamp } from "@/lib/farm/display";
import type { TokenView } from "@/server/auth/access-tokens";
import { Ago } from "../admin/ago";
import { useTRPC } from "../trpc";
import { ConfirmButton } from "../ui/confirm-button";
import { DataTable } from "../ui/data-table";
import { NoticeLine, type Notice } from "../ui/notice";
import { useNow } from "../ui/use-now";
import { expiryText, tokenState } from "./token-choices";

const STATE_WORDS = { active: "Active", expired: "Expired", revoked: "Revoked" } as const;
const STATE_TONES = { active: "good", expired: "off", revoked: "off" } as const;

/** Your tokens, newest first: when each was last used and from where, and revoke. */
export function TokensTable() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.tokens.list.queryOptions());
  const [notice, setNotice] = useState<Notice | null>(null);
  const revoke = useMutation(
    trpc.tokens.revoke.mutationOptions({
      onSuccess: (_result, input) => {
        const name = tokens.find((t) => t.id === input.tokenId)?.name ?? input.tokenId;
        setNotice({ tone: "good", text: `Token ${name} is revoked: scripts using it are refused from their next call.` });
        void queryClient.invalidateQueries(trpc.tokens.list.queryFilter());
      },
      onError: (error) => setNotice({ tone: "bad", text: `Not revoked: ${error.message}` }),
    }),
  );
  const now = useNow(true, 60_000);
  const tokens = list.data ?? [];
  return (
    <section aria-labelledby="tokens-title">
      <h2 className="admin-section-title" id="tokens-title">
        Your tokens
      </h2>
      {list.error && (
        <p role="alert" className="error-text">
          Could not load your tokens: {list.error.message}
        </p>
      )}
      {/* The Revoke button goes with the token it revoked: the result takes the focus. */}
      <NoticeLine notice={notice} takeFocus />
      {list.data && tokens.length === 0 && <p className="muted">You have no tokens yet.</p>}
      {tokens.length > 0 && (
        <DataTable label="Your tokens" columns={["Name", "Scope", "State", "Created", "Expires", "Last used", { label: "Actions", hidden: true }]}>
          {tokens.map((token) => (
            <TokenRow key={token.id} token={token} now={now} busy={revoke.isPending} onRevoke={() => revoke.mutate({ tokenId: token.id })} />
          ))}
        </DataTable>
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

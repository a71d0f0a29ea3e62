"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import type { Role, TokenScope } from "@/lib/farm/access";
import { useTRPC } from "../trpc";
import { DEFAULT_EXPIRY_DAYS, defaultScope, EXPIRY_CHOICES, SCOPE_LABELS, scopesFor } from "./token-choices";

/** The name field's id: focus comes back to it when the new token's panel closes. */
export const TOKEN_NAME_FIELD = "create-token-name";

/** A new token of your own: a name to know it by, a scope, an expiry. The answer (the token) goes up once and is not kept here. */
export function CreateToken({ role, onToken }: { role: Role; onToken: (token: { name: string; token: string }) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [scope, setScope] = useState<TokenScope>(defaultScope(role));
  const [days, setDays] = useState<number>(DEFAULT_EXPIRY_DAYS);
  const create = useMutation(
    trpc.tokens.create.mutationOptions({
      // The answer holds the token: nothing may keep it once it has been handed to the panel.
      gcTime: 0,
      onSuccess: (result) => {
        onToken({ name: result.view.name, token: result.token });
        create.reset();
        setName("");
        void queryClient.invalidateQueries(trpc.tokens.list.queryFilter());
      },
    }),
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim() !== "") create.mutate({ name: name.trim(), scope, expiresInDays: days });
  };

  return (
    <section aria-labelledby="create-token-title">
      <h2 className="admin-section-title" id="create-token-title">
        Create a token
      </h2>
      <form className="create-pool" onSubmit={submit}>
        <label className="description">
          Token name
          <input id={TOKEN_NAME_FIELD} value={name} onChange={(e) => setName(e.target.value)} maxLength={100} placeholder="e.g. nightly renders" autoComplete="off" required />
        </label>
        <label>
          Scope
          <select value={scope} onChange={(e) => setScope(e.target.value as TokenScope)}>
            {scopesFor(role).map((s) => (
              <option key={s} value={s}>
                {SCOPE_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Expires after
          <select value={days} onChange={(e) => setDays(Number(e.target.value))}>
            {EXPIRY_CHOICES.map((c) => (
              <option key={c.days} value={c.days}>
                {c.label}
              </option>
            ))}
          </select>
        </label>
        <button type="submit" className="primary" disabled={create.isPending || name.trim() === ""}>
          Create token
        </button>
      </form>
      <p className="muted">A token acts as you, never beyond your role; its scope can narrow it further. It is shown once, right after it is made.</p>
      {create.error && (
        <p role="alert" className="error-text">
          Not created: {create.error.message}
        </p>
      )}
    </section>
  );
}

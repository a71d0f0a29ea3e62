"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "../trpc";
import type { NewToken } from "./pool-actions";
import { POOL_NAME } from "@/lib/farm/pool-name";

/** The name field's id: focus comes back to it when the new token's panel closes. */
export const POOL_NAME_FIELD = "create-pool-name";

/** A new pool: its name is checked as typed by the rule the server applies (lib/farm/pool-name); its token goes up to be shown once. */
export function CreatePool({ onToken }: { onToken: (token: NewToken) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const create = useMutation(
    trpc.pools.create.mutationOptions({
      // The answer holds the token: nothing may keep it once it has been handed to the panel.
      gcTime: 0,
      onSuccess: (result, input) => {
        onToken({ poolName: input.name, token: result.token, rotated: false });
        create.reset();
        setName("");
        setDescription("");
        void queryClient.invalidateQueries(trpc.pools.list.queryFilter());
      },
    }),
  );
  const nameProblem = name !== "" && !POOL_NAME.test(name) ? "1–64 letters, digits, '_', '.' or '-', starting with a letter or digit" : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!name || nameProblem) return;
    create.mutate({ name, ...(description ? { description } : {}) });
  }

  return (
    <section aria-labelledby="create-pool-title">
      <h2 className="admin-section-title" id="create-pool-title">
        Create a pool
      </h2>
      <form className="create-pool" onSubmit={submit}>
        <label>
          Pool name
          <input
            id={POOL_NAME_FIELD}
            value={name}
            onChange={(e) => setName(e.target.value)}
            required
            maxLength={64}
            aria-invalid={nameProblem ? true : undefined}
            aria-describedby="pool-name-hint"
            autoComplete="off"
          />
        </label>
        <label className="description">
          Description
          <input value={description} onChange={(e) => setDescription(e.target.value)} maxLength={500} autoComplete="off" />
        </label>
        <button type="submit" className="primary" disabled={create.isPending || !name || nameProblem !== null}>
          Create pool
        </button>
      </form>
      <p id="pool-name-hint" className={nameProblem ? "error-text" : "muted"}>
        {nameProblem ?? "Its token is shown once, right after it is created."}
      </p>
      {create.error && (
        <p role="alert" className="error-text">
          {create.error.message}
        </p>
      )}
    </section>
  );
}

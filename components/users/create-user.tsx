"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState, type FormEvent } from "react";
import { ROLE_LABELS, ROLES, type Role } from "@/lib/farm/access";
import { accountProblems, accountReady, type AccountFields } from "../auth/account-checks";
import { useTRPC } from "../trpc";

/** A new person's account: name, role and an initial password (tell it to them; the users page can set another). */
export function CreateUser({ onCreated }: { onCreated: (name: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [fields, setFields] = useState<AccountFields>({ name: "", password: "", confirm: null });
  const [role, setRole] = useState<Role>("artist");
  const nameField = useRef<HTMLInputElement>(null);
  const create = useMutation(
    trpc.users.create.mutationOptions({
      onSuccess: (user) => {
        onCreated(user.name);
        setFields({ name: "", password: "", confirm: null });
        // The form is empty again (its button disabled): ready for the next person.
        nameField.current?.focus();
        void queryClient.invalidateQueries(trpc.users.list.queryFilter());
      },
    }),
  );
  const problems = accountProblems(fields);
  const ready = accountReady(fields);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (ready) create.mutate({ name: fields.name, role, password: fields.password });
  };

  return (
    <section aria-labelledby="create-user-title">
      <h2 className="admin-section-title" id="create-user-title">
        Create a user
      </h2>
      <form className="create-pool" onSubmit={submit} noValidate>
        <label>
          User name
          <input
            ref={nameField}
            value={fields.name}
            onChange={(e) => setFields({ ...fields, name: e.target.value })}
            maxLength={64}
            autoComplete="off"
            aria-invalid={problems.name ? true : undefined}
            aria-describedby="create-user-note"
          />
        </label>
        <label>
          Role
          <select value={role} onChange={(e) => setRole(e.target.value as Role)}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Initial password
          <input
            type="password"
            value={fields.password}
            onChange={(e) => setFields({ ...fields, password: e.target.value })}
            maxLength={1024}
            autoComplete="new-password"
            aria-invalid={problems.password ? true : undefined}
            aria-describedby="create-user-note"
          />
        </label>
        <button type="submit" className="primary" disabled={!ready || create.isPending}>
          Create user
        </button>
      </form>
      <p id="create-user-note" className={problems.name || problems.password ? "error-text" : "muted"}>
        {[problems.name, problems.password].filter(Boolean).join(" ") || "Tell the person their initial password; they sign in with it at /login."}
      </p>
      {create.error && (
        <p role="alert" className="error-text">
          Not created: {create.error.message}
        </p>
      )}
    </section>
  );
}

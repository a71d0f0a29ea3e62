"use client";

import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "../trpc";
import { accountProblems, accountReady, USER_NAME_RULE, type AccountFields } from "./account-checks";
import { PasswordFields } from "./password-fields";

/** The first admin: a name and a password typed twice, checked as typed; then signed in, to the users page. */
export function SetupForm({ token }: { token: string }) {
  const trpc = useTRPC();
  const [fields, setFields] = useState<AccountFields>({ name: "", password: "", confirm: "" });
  const setup = useMutation(trpc.auth.setup.mutationOptions({ onSuccess: () => window.location.assign("/admin/users") }));
  const problems = accountProblems(fields);
  const ready = accountReady(fields);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (ready) setup.mutate({ token, name: fields.name, password: fields.password });
  };

  return (
    <form className="stacked" onSubmit={submit} aria-label="Create the first admin" noValidate>
      <label>
        Admin name
        <input
          name="username"
          autoComplete="username"
          value={fields.name}
          onChange={(e) => setFields({ ...fields, name: e.target.value })}
          maxLength={64}
          aria-invalid={problems.name ? true : undefined}
          aria-describedby="setup-name-note"
          autoFocus
        />
      </label>
      <p id="setup-name-note" className={`form-note ${problems.name ? "error-text" : "muted"}`}>
        {problems.name ?? `${USER_NAME_RULE[0]!.toUpperCase()}${USER_NAME_RULE.slice(1)}.`}
      </p>
      <PasswordFields idPrefix="setup" fields={fields} problems={problems} onChange={(patch) => setFields({ ...fields, ...patch })} />
      <button type="submit" className="primary" disabled={!ready || setup.isPending || setup.isSuccess}>
        {setup.isPending || setup.isSuccess ? "Creating…" : "Create admin and sign in"}
      </button>
      {setup.error && (
        <p role="alert" className="error-text">
          Not created: {setup.error.message}
        </p>
      )}
    </form>
  );
}

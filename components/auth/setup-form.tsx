"use client";

import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "../trpc";
import { accountProblems, accountReady, USER_NAME_RULE, type AccountFields } from "./account-checks";
import { NoteField } from "./note-field";
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
      <NoteField
        id="setup-name"
        label="Admin name"
        hint={`${USER_NAME_RULE[0]!.toUpperCase()}${USER_NAME_RULE.slice(1)}.`}
        problem={problems.name}
        name="username"
        autoComplete="username"
        value={fields.name}
        onChange={(e) => setFields({ ...fields, name: e.target.value })}
        maxLength={64}
        autoFocus
      />
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

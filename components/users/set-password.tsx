"use client";

import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { accountProblems } from "../auth/account-checks";
import { useTRPC } from "../trpc";

/** A new password for someone (their browser sessions end; their tokens stay). */
export function SetPassword({ name, onError, onDone }: { name: string; onError: (message: string | null) => void; onDone: (message: string) => void }) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const set = useMutation(
    trpc.users.setPassword.mutationOptions({
      onSuccess: () => {
        onError(null);
        onDone(`${name} has a new password; they were signed out of their browser sessions.`);
        setPassword("");
        setOpen(false);
      },
      onError: (error) => onError(`${name}: ${error.message}`),
    }),
  );
  const problem = password === "" ? null : (accountProblems({ name, password, confirm: null }).password ?? null);

  if (!open) {
    return (
      <button type="button" onClick={() => setOpen(true)}>
        Set password
      </button>
    );
  }
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password !== "" && !problem) set.mutate({ name, password });
  };
  return (
    <form className="set-password" onSubmit={submit} noValidate>
      <input
        type="password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        aria-label={`New password for ${name}`}
        autoComplete="new-password"
        maxLength={1024}
        aria-invalid={problem ? true : undefined}
        autoFocus
      />
      <button type="submit" className="primary" disabled={password === "" || problem !== null || set.isPending}>
        Save password
      </button>
      <button type="button" onClick={() => setOpen(false)}>
        Keep as is
      </button>
      {problem && <span className="error-text">{problem}</span>}
    </form>
  );
}

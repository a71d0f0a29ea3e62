"use client";

import { useMutation } from "@tanstack/react-query";
import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { accountProblems } from "../auth/account-checks";
import { useTRPC } from "../trpc";

/** A new password for someone (their browser sessions end; their tokens stay). */
export function SetPassword({ name, onError, onDone }: { name: string; onError: (message: string | null) => void; onDone: (message: string) => void }) {
  const trpc = useTRPC();
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState("");
  const problemId = useId();
  const opener = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  // Saved or kept as is, the form goes away: the keyboard goes back to the button that opened it.
  useEffect(() => {
    if (wasOpen.current && !open) opener.current?.focus();
    wasOpen.current = open;
  }, [open]);
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
      <button ref={opener} type="button" onClick={() => setOpen(true)}>
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
        aria-describedby={problem ? problemId : undefined}
        autoFocus
      />
      <button type="submit" className="primary" disabled={password === "" || problem !== null || set.isPending}>
        Save password
      </button>
      <button type="button" onClick={() => setOpen(false)}>
        Keep as is
      </button>
      {problem && (
        <span id={problemId} className="error-text">
          {problem}
        </span>
      )}
    </form>
  );
}

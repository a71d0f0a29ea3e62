"use client";

import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTRPC } from "../trpc";

/**
 * Name and password. The server answers every refusal the same way ("wrong user name or
 * password", or the rate limit's "try again in N minutes"), and this form shows exactly that.
 * A success is a full page load of `next`, so every page starts again as the signed-in caller.
 */
export function LoginForm({ next }: { next: string }) {
  const trpc = useTRPC();
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const signIn = useMutation(trpc.auth.signIn.mutationOptions({ onSuccess: () => window.location.assign(next) }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name === "" || password === "") return;
    signIn.mutate({ name, password });
  };

  return (
    <form className="stacked" onSubmit={submit} aria-label="Sign in">
      <label>
        User name
        <input name="username" autoComplete="username" value={name} onChange={(e) => setName(e.target.value)} required maxLength={64} autoFocus />
      </label>
      <label>
        Password
        <input name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} required maxLength={1024} />
      </label>
      <button type="submit" className="primary" disabled={signIn.isPending || signIn.isSuccess || name === "" || password === ""}>
        {signIn.isPending || signIn.isSuccess ? "Signing in…" : "Sign in"}
      </button>
      {signIn.error && (
        <p role="alert" className="error-text">
          Not signed in: {signIn.error.message}
        </p>
      )}
    </form>
  );
}

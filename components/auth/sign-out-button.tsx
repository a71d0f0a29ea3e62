"use client";

import { useMutation } from "@tanstack/react-query";
import { useTRPC } from "../trpc";

/** Ends this browser's session on the server (the cookie is cleared too), then shows the sign-in page. */
export function SignOutButton() {
  const trpc = useTRPC();
  const signOut = useMutation(
    trpc.auth.signOut.mutationOptions({
      onSuccess: () => window.location.assign("/login"),
      // A session that already ended (idle, revoked) is as good as signed out.
      onError: (error) => {
        if (error.data?.code === "UNAUTHORIZED") window.location.assign("/login");
      },
    }),
  );
  return (
    <>
      <button type="button" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
        Sign out
      </button>
      {signOut.error && (
        <span role="alert" className="error-text">
          Not signed out: {signOut.error.message}
        </span>
      )}
    </>
  );
}

"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { ROLE_LABELS, roleWithArticle, ROLES, type Role } from "@/lib/farm/access";
import type { UserView } from "@/server/auth/accounts";
import { useTRPC } from "../trpc";
import { ConfirmButton } from "../ui/confirm-button";
import { useRefocus } from "../ui/use-refocus";
import { SetPassword } from "./set-password";

/**
 * One account's controls: role, disable or enable, password. The server has the last word (it
 * refuses, say, to demote or disable the farm's last admin); its refusal goes to `onError`.
 */
export function UserActions({ user, isSelf, onError, onDone }: { user: UserView; isSelf: boolean; onError: (message: string | null) => void; onDone: (message: string) => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [role, setRole] = useState<Role>(user.role);
  // The chosen role follows the account's when that changes (here or from elsewhere).
  const [shownRole, setShownRole] = useState<Role>(user.role);
  if (shownRole !== user.role) {
    setShownRole(user.role);
    setRole(user.role);
  }
  const roleSelect = useRef<HTMLSelectElement>(null);
  const toggle = useRefocus(user.disabled);
  const options = (done: string, after?: () => void) => ({
    onSuccess: () => {
      onError(null);
      onDone(done);
      after?.();
      void queryClient.invalidateQueries(trpc.users.list.queryFilter());
    },
    onError: (error: { message: string }) => {
      setRole(user.role);
      onError(`${user.name}: ${error.message}`);
    },
  });
  // "Change role" is disabled once the role is the account's: the keyboard goes back to the choice.
  const setUserRole = useMutation(trpc.users.setRole.mutationOptions(options(`${user.name} is now ${roleWithArticle(role)}.`, () => roleSelect.current?.focus())));
  const setDisabled = useMutation(
    trpc.users.setDisabled.mutationOptions(options(user.disabled ? `${user.name} can sign in again.` : `${user.name} is disabled: their sessions and tokens are revoked.`)),
  );
  const busy = setUserRole.isPending || setDisabled.isPending;
  const toggleDisabled = (disabled: boolean) => {
    toggle.arm();
    setDisabled.mutate({ name: user.name, disabled });
  };

  return (
    <div className="pool-actions">
      <select ref={roleSelect} value={role} onChange={(e) => setRole(e.target.value as Role)} disabled={busy} aria-label={`Role of ${user.name}`}>
        {ROLES.map((r) => (
          <option key={r} value={r}>
            {ROLE_LABELS[r]}
          </option>
        ))}
      </select>
      <ConfirmButton
        label="Change role"
        question={`Make ${user.name} ${roleWithArticle(role)}${isSelf ? " (this is you)" : ""}? It takes effect on their next click.`}
        confirmLabel={`Make ${roleWithArticle(role)}`}
        disabled={busy || role === user.role}
        onConfirm={() => setUserRole.mutate({ name: user.name, role })}
      />
      <span ref={toggle.ref} className="contents">
        {user.disabled ? (
          <button type="button" disabled={busy} onClick={() => toggleDisabled(false)}>
            Enable
          </button>
        ) : (
          <ConfirmButton
            label="Disable"
            danger
            question={`Disable ${user.name}${isSelf ? " (this is you)" : ""}? They are signed out everywhere, their tokens stop working, and they cannot sign in until enabled.`}
            confirmLabel={`Disable ${user.name}`}
            disabled={busy}
            onConfirm={() => toggleDisabled(true)}
          />
        )}
      </span>
      {user.kind === "person" && <SetPassword name={user.name} onError={onError} onDone={onDone} />}
    </div>
  );
}

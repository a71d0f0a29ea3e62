"use client";

import { PASSWORD_MIN_LENGTH } from "@/lib/farm/access";
import type { AccountFields, AccountProblems } from "./account-checks";

interface Props {
  idPrefix: string;
  fields: AccountFields;
  problems: AccountProblems;
  onChange: (patch: Partial<AccountFields>) => void;
  /** The first field's label ("Password", "Initial password", "New password"). */
  label?: string;
}

/** A new password, and (when `fields.confirm` is not null) the same again, each with its problem under it. */
export function PasswordFields({ idPrefix, fields, problems, onChange, label = "Password" }: Props) {
  return (
    <>
      <label>
        {label}
        <input
          type="password"
          autoComplete="new-password"
          value={fields.password}
          onChange={(e) => onChange({ password: e.target.value })}
          maxLength={1024}
          aria-invalid={problems.password ? true : undefined}
          aria-describedby={`${idPrefix}-password-note`}
        />
      </label>
      <p id={`${idPrefix}-password-note`} className={`form-note ${problems.password ? "error-text" : "muted"}`}>
        {problems.password ?? `At least ${PASSWORD_MIN_LENGTH} characters, not containing the user name.`}
      </p>
      {fields.confirm !== null && (
        <>
          <label>
            {label} again
            <input
              type="password"
              autoComplete="new-password"
              value={fields.confirm}
              onChange={(e) => onChange({ confirm: e.target.value })}
              maxLength={1024}
              aria-invalid={problems.confirm ? true : undefined}
              aria-describedby={`${idPrefix}-confirm-note`}
            />
          </label>
          <p id={`${idPrefix}-confirm-note`} className={`form-note ${problems.confirm ? "error-text" : "muted"}`}>
            {problems.confirm ?? "The same password, to be sure it is the one you meant."}
          </p>
        </>
      )}
    </>
  );
}

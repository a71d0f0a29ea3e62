"use client";

import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "@/lib/farm/access";
import type { AccountFields, AccountProblems } from "./account-checks";
import { NoteField } from "./note-field";

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
  const secret = { type: "password", autoComplete: "new-password", maxLength: PASSWORD_MAX_LENGTH } as const;
  return (
    <>
      <NoteField
        {...secret}
        id={`${idPrefix}-password`}
        label={label}
        hint={`At least ${PASSWORD_MIN_LENGTH} characters, not containing the user name.`}
        problem={problems.password}
        value={fields.password}
        onChange={(e) => onChange({ password: e.target.value })}
      />
      {fields.confirm !== null && (
        <NoteField
          {...secret}
          id={`${idPrefix}-confirm`}
          label={`${label} again`}
          hint="The same password, to be sure it is the one you meant."
          problem={problems.confirm}
          value={fields.confirm}
          onChange={(e) => onChange({ confirm: e.target.value })}
        />
      )}
    </>
  );
}

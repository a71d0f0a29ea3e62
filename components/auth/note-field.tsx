import type { InputHTMLAttributes } from "react";

interface Props extends Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "aria-invalid" | "aria-describedby"> {
  /** The note's id is `${id}-note`. */
  id: string;
  label: string;
  /** What the field wants, shown until there is a problem. */
  hint: string;
  problem: string | undefined;
}

/** A labelled field with a line under it: the hint, or the problem with what was typed (its accessible description either way). */
export function NoteField({ id, label, hint, problem, ...input }: Props) {
  return (
    <>
      <label>
        {label}
        <input {...input} aria-invalid={problem ? true : undefined} aria-describedby={`${id}-note`} />
      </label>
      <p id={`${id}-note`} className={`form-note ${problem ? "error-text" : "muted"}`}>
        {problem ?? hint}
      </p>
    </>
  );
}

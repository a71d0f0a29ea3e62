"use client";

import { describeError, type TemplateError } from "@/lib/openjd";

interface ErrorListProps {
  errors: readonly TemplateError[];
  kind: "job" | "environment";
  onSelect: (error: TemplateError) => void;
}

/**
 * The editor's problems beside it, readable without seeing the squiggles: each entry says the
 * path, line:column and message as `loom check` does, and moves the editor's cursor there.
 */
export function ErrorList({ errors, kind, onSelect }: ErrorListProps) {
  return (
    <section className="error-panel" aria-labelledby="problems-heading">
      <h2 id="problems-heading">Problems</h2>
      <p role="status" className={errors.length === 0 ? "status-good" : "status-bad"}>
        {errors.length === 0 ? `No errors: a valid ${kind} template.` : `${errors.length} error${errors.length === 1 ? "" : "s"}`}
      </p>
      <ul role="list" aria-label="Template errors" className="problem-list">
        {errors.map((error, i) => (
          <li key={`${i}:${error.path}:${error.line}:${error.column}`}>
            <button type="button" onClick={() => onSelect(error)} aria-label={describeError(error)} title="Move the cursor there">
              <span className="problem-where">
                {error.path === "" ? "<document>" : error.path}
                {error.line !== null ? ` (${error.line}:${error.column ?? 1})` : ""}
              </span>
              <span className="problem-message">{error.message}</span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

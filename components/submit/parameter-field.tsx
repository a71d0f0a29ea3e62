"use client";

import type { KeyboardEvent } from "react";
import { describeFilter, fileFilterWarning, type FormField, stepSpin } from "@/lib/openjd";
import { fieldHint } from "./field-hint";

interface FieldProps {
  field: FormField;
  value: string;
  error: string | null;
  onChange: (value: string) => void;
}

const PATH_NOTE: Record<string, string> = {
  CHOOSE_INPUT_FILE: "A file the workers read, as a path on the farm",
  CHOOSE_OUTPUT_FILE: "A file the workers write, as a path on the farm",
  CHOOSE_DIRECTORY: "A folder, as a path on the farm",
};

/** One parameter as the control its userInterface asks for; description, hints and errors are wired with aria-describedby. */
export function ParameterField({ field, value, error, onChange }: FieldProps) {
  const id = `param-${field.name}`;
  // A PATH without objectType gets the directory chooser (the spec's default), but it may name a file as well.
  const pathNote =
    field.control === "CHOOSE_DIRECTORY" && field.definition.type === "PATH" && !("objectType" in field.definition && field.definition.objectType)
      ? "A path, file or folder, on the farm"
      : PATH_NOTE[field.control];
  const warning = pathNote ? fileFilterWarning(field.fileFilters, value) : null;
  const hint = fieldHint(field);
  const notes = [
    field.description && { id: `${id}-desc`, text: field.description, className: "field-description" },
    pathNote && { id: `${id}-path`, text: `${pathNote}${field.fileFilters.length > 0 ? `; filters: ${field.fileFilters.map(describeFilter).join("; ")}` : ""}`, className: "muted" },
    hint && { id: `${id}-hint`, text: hint, className: "muted" },
    warning && { id: `${id}-warning`, text: `Warning: ${warning}`, className: "field-warning" },
    error && { id: `${id}-error`, text: error, className: "error-text" },
  ].filter((n): n is { id: string; text: string; className: string } => Boolean(n));
  const common = {
    id,
    "aria-describedby": notes.map((n) => n.id).join(" ") || undefined,
    "aria-invalid": error ? true : undefined,
    "aria-required": field.required || undefined,
  };
  const label = (
    <label htmlFor={id}>
      {field.label}
      {field.required ? <span className="muted"> (required)</span> : null}
    </label>
  );

  let control;
  switch (field.control) {
    case "CHECK_BOX": {
      const box = field.checkBox!;
      return (
        <div className="param-field param-check">
          <input type="checkbox" {...common} checked={value === box.on} onChange={(e) => onChange(e.target.checked ? box.on : box.off)} />
          {label}
          <Notes notes={notes} />
        </div>
      );
    }
    case "DROPDOWN_LIST":
      control = (
        <select {...common} value={value} onChange={(e) => onChange(e.target.value)}>
          {field.options.includes(value) ? null : <option value={value}>{value === "" ? "Choose…" : value}</option>}
          {field.options.map((option) => (
            <option key={option} value={option}>
              {option}
            </option>
          ))}
        </select>
      );
      break;
    case "MULTILINE_EDIT":
    case "LIST":
      control = <textarea {...common} className="param-multiline" rows={4} spellCheck={false} value={value} onChange={(e) => onChange(e.target.value)} />;
      break;
    case "SPIN_BOX":
      control = <SpinBox field={field} common={common} value={value} onChange={onChange} />;
      break;
    default:
      control = (
        <input
          type="text"
          {...common}
          value={value}
          spellCheck={pathNote ? false : undefined}
          placeholder={pathNote ? (field.control === "CHOOSE_DIRECTORY" ? "/path/to/folder" : "/path/to/file") : undefined}
          onChange={(e) => onChange(e.target.value)}
        />
      );
  }
  return (
    <div className="param-field">
      {label}
      {control}
      <Notes notes={notes} />
    </div>
  );
}

function Notes({ notes }: { notes: Array<{ id: string; text: string; className: string }> }) {
  return (
    <>
      {notes.map((n) => (
        <p key={n.id} id={n.id} className={`field-note ${n.className}`}>
          {n.text}
        </p>
      ))}
    </>
  );
}

/** A text box with spin button semantics: arrow keys and the two buttons step by the template's singleStepDelta. */
function SpinBox({ field, common, value, onChange }: { field: FormField; common: Record<string, unknown>; value: string; onChange: (v: string) => void }) {
  const spin = field.spin!;
  const step = (direction: 1 | -1) => onChange(stepSpin(spin, value, direction));
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== "ArrowUp" && e.key !== "ArrowDown") return;
    e.preventDefault();
    step(e.key === "ArrowUp" ? 1 : -1);
  };
  const now = Number(value);
  return (
    <span className="spin-box">
      <input
        type="text"
        role="spinbutton"
        inputMode={spin.integer ? "numeric" : "decimal"}
        {...common}
        aria-valuenow={value.trim() !== "" && Number.isFinite(now) ? now : undefined}
        aria-valuemin={spin.min !== null ? Number(spin.min) : undefined}
        aria-valuemax={spin.max !== null ? Number(spin.max) : undefined}
        value={value}
        onKeyDown={onKeyDown}
        onChange={(e) => onChange(e.target.value)}
      />
      <button type="button" tabIndex={-1} aria-label={`Decrease ${field.label}`} onClick={() => step(-1)}>
        −
      </button>
      <button type="button" tabIndex={-1} aria-label={`Increase ${field.label}`} onClick={() => step(1)}>
        +
      </button>
    </span>
  );
}

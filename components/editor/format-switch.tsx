"use client";

import type { DocumentFormat } from "@/lib/openjd";

/** YAML or JSON: shows the detected format; choosing the other converts the document. */
export function FormatSwitch({ format, onSwitch }: { format: DocumentFormat; onSwitch: (format: DocumentFormat) => void }) {
  return (
    <fieldset className="format-switch">
      <legend>Format</legend>
      {(["yaml", "json"] as const).map((option) => (
        <label key={option}>
          <input type="radio" name="template-format" value={option} checked={format === option} onChange={() => onSwitch(option)} />
          {option.toUpperCase()}
        </label>
      ))}
    </fieldset>
  );
}

"use client";

import Link from "next/link";
import { useState, type ChangeEvent } from "react";
import { detectFormat, SOURCE_LIMITS, type DocumentFormat } from "@/lib/openjd/parse-source";
import { detectContentFormat } from "@/components/editor/convert-format";

export interface LoadedTemplate {
  text: string;
  format: DocumentFormat;
  /** Where it came from, in words ("file render.yaml"). */
  source: string;
  /** Parameter values saved with it (a library template from a job bundle). */
  values?: Readonly<Record<string, unknown>>;
}

/** The farm refuses larger templates (jobs.submit input limit). */
const MAX_BYTES = SOURCE_LIMITS.maxTextLength;

/** A template file from the artist's computer; it is read in the browser, nothing is uploaded until preview or submit. */
export function TemplatePicker({ onLoad }: { onLoad: (template: LoadedTemplate) => void }) {
  const [problem, setProblem] = useState<string | null>(null);
  const onChange = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    if (!file) return;
    if (file.size > MAX_BYTES) {
      setProblem(`${file.name} is ${(file.size / 1024 / 1024).toFixed(1)} MB; templates may be at most ${MAX_BYTES / 1024 / 1024} MB`);
      return;
    }
    setProblem(null);
    const text = await file.text();
    onLoad({ text, format: detectFormat(file.name) ?? detectContentFormat(text), source: `file ${file.name}` });
  };
  return (
    <div className="param-field">
      <label htmlFor="template-file">Template file</label>
      <input id="template-file" type="file" accept=".yaml,.yml,.json,application/json,application/yaml,text/yaml" aria-describedby="template-file-hint" onChange={onChange} />
      <p id="template-file-hint" className="field-note muted">
        An Open Job Description job template, .yaml, .yml or .json. Saved templates are in the <Link href="/templates">library</Link>.
      </p>
      {problem ? <p className="field-note error-text" role="alert">{problem}</p> : null}
    </div>
  );
}

"use client";

import { useMutation } from "@tanstack/react-query";
import Link from "next/link";
import { useState, type ChangeEvent } from "react";
import { detectFormat, type DocumentFormat, SOURCE_LIMITS } from "@/lib/openjd";
import { detectContentFormat } from "@/components/editor/convert-format";
import { bytesToBase64 } from "@/components/templates/upload";
import { useTRPC } from "@/components/trpc";
import { bundleFolderFiles, isZipName } from "./bundle-folder";

export interface LoadedTemplate {
  text: string;
  format: DocumentFormat;
  /** Where it came from, in words ("file render.yaml"). */
  source: string;
  /** Parameter values saved with it (a library template from a job bundle, or a bundle opened here). */
  values?: Readonly<Record<string, unknown>>;
}

/** The farm refuses larger templates (jobs.submit input limit). */
const MAX_BYTES = SOURCE_LIMITS.maxTextLength;
/** templates.readBundle's limit (server/services/job-bundle.ts MAX_BUNDLE_BYTES). */
const MAX_BUNDLE_BYTES = 50 * 1024 * 1024;

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * A template file, a job bundle .zip or a job bundle folder from the artist's computer. A template
 * file is read in the browser; a bundle is read by the farm (templates.readBundle: the same reader
 * as `loom submit` and /templates, nothing kept), and its parameter values fill the form.
 */
export function TemplatePicker({ onLoad }: { onLoad: (template: LoadedTemplate) => void }) {
  const trpc = useTRPC();
  const [problem, setProblem] = useState<string | null>(null);
  const bundle = useMutation(trpc.templates.readBundle.mutationOptions());
  const openBundle = async (input: Parameters<typeof bundle.mutateAsync>[0], source: string) => {
    try {
      const read = await bundle.mutateAsync(input);
      onLoad({ text: read.template.text, format: read.template.format, source, values: read.parameterValues });
    } catch (error) {
      setProblem(`Could not open ${source}: ${(error as Error).message}`);
    }
  };
  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = "";
    if (!file) return;
    setProblem(null);
    const zip = isZipName(file.name);
    const limit = zip ? MAX_BUNDLE_BYTES : MAX_BYTES;
    if (file.size > limit) return setProblem(`${file.name} is ${megabytes(file.size)}; ${zip ? "job bundles" : "templates"} may be at most ${megabytes(limit)}`);
    if (zip) return openBundle({ fileName: file.name, base64: bytesToBase64(new Uint8Array(await file.arrayBuffer())) }, `job bundle ${file.name}`);
    const text = await file.text();
    onLoad({ text, format: detectFormat(file.name) ?? detectContentFormat(text), source: `file ${file.name}` });
  };
  const onFolder = async (e: ChangeEvent<HTMLInputElement>) => {
    const pick = bundleFolderFiles([...(e.target.files ?? [])]);
    e.target.value = "";
    if (!pick) return;
    setProblem(null);
    const tooBig = pick.files.find((f) => f.file.size > MAX_BYTES);
    if (tooBig) return setProblem(`${pick.folderName}/${tooBig.name} is ${megabytes(tooBig.file.size)}; bundle files may be at most ${megabytes(MAX_BYTES)}`);
    const files = Object.fromEntries(await Promise.all(pick.files.map(async (f) => [f.name, await f.file.text()] as const)));
    await openBundle({ folderName: pick.folderName, files }, `job bundle folder ${pick.folderName}`);
  };
  return (
    <div className="param-field">
      <label htmlFor="template-file">Template file or job bundle</label>
      <input
        id="template-file"
        type="file"
        accept=".yaml,.yml,.json,.zip,application/json,application/yaml,text/yaml,application/zip"
        aria-describedby="template-file-hint"
        onChange={onFile}
        disabled={bundle.isPending}
      />
      <label htmlFor="bundle-folder">Job bundle folder</label>
      {/* webkitdirectory is not in React's input attributes; every Chromium, Firefox and Safari reads it. */}
      <input id="bundle-folder" type="file" {...{ webkitdirectory: "" }} aria-describedby="template-file-hint" onChange={onFolder} disabled={bundle.isPending} />
      <p id="template-file-hint" className="field-note muted">
        An Open Job Description job template (.yaml, .yml, .json), or a job bundle: a .zip or a folder with template.yaml|json and optionally parameter_values.yaml|json, whose values fill the form.
        Saved templates are in the <Link href="/templates">library</Link>.
      </p>
      {bundle.isPending ? (
        <p className="field-note muted" role="status">
          Reading the job bundle…
        </p>
      ) : null}
      {problem ? (
        <p className="field-note error-text" role="alert">
          {problem}
        </p>
      ) : null}
    </div>
  );
}

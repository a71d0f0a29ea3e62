"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useMemo, useState } from "react";
import { checkTemplateText, describeError } from "@/lib/openjd";
import { useTRPC } from "@/components/trpc";
import { useMe } from "@/components/auth/me";
import { SubmitForm } from "./submit-form";
import { TemplatePicker, type LoadedTemplate } from "./template-picker";
import "./submit.css";

/** /submit: open a template (a file, or `?template=<id>` from the library), fill its generated form, preview, submit. */
export function SubmitJob({ templateId }: { templateId: string | null }) {
  const trpc = useTRPC();
  const me = useMe();
  const [picked, setPicked] = useState<LoadedTemplate | null>(null);
  // Each opened file starts a fresh form, even when it is the same file opened again.
  const [loads, setLoads] = useState(0);
  const onLoad = (loaded: LoadedTemplate) => {
    setPicked(loaded);
    setLoads((n) => n + 1);
  };
  const library = useQuery({ ...trpc.templates.get.queryOptions({ id: templateId ?? "" }), enabled: templateId !== null && picked === null });
  // Memoised on the query's data: a fresh object each render would re-check the template and
  // rebuild the form whenever this component re-renders.
  const saved = library.data;
  const fromLibrary = useMemo<LoadedTemplate | null>(
    () => (saved ? { text: saved.text, format: saved.format, source: `library template “${saved.name}”`, values: saved.parameterValues } : null),
    [saved],
  );
  const template = picked ?? fromLibrary;
  const checked = useMemo(() => (template ? checkTemplateText(template.text, template.format, "job") : null), [template]);
  const job = checked?.template?.kind === "job" ? checked.template.template : null;

  return (
    <>
      <section aria-labelledby="template-heading">
        <div className="section-head">
          <h2 id="template-heading">Template</h2>
          {me ? <Link href={`/jobs?submitter=${encodeURIComponent(me.name)}`}>My jobs</Link> : null}
        </div>
        <TemplatePicker onLoad={onLoad} />
        {templateId !== null && picked === null && library.isPending ? <p className="muted">Loading template from the library…</p> : null}
        {library.error && picked === null ? (
          <p className="error-text">
            Could not open library template {templateId}: {library.error.message}
          </p>
        ) : null}
        {template ? <p className="muted">Opened {template.source}.</p> : <p className="muted">Choose a job template (YAML or JSON) to get its submission form.</p>}
        {checked && checked.errors.length > 0 ? (
          <div role="alert" className="submit-errors">
            <p className="status-bad">
              The template has {checked.errors.length} error{checked.errors.length === 1 ? "" : "s"}; fix them (the editor shows them in place) before submitting.
            </p>
            <ul className="errors">
              {checked.errors.map((e, i) => (
                <li key={i}>{describeError(e)}</li>
              ))}
            </ul>
          </div>
        ) : null}
        {checked?.template && checked.template.kind !== "job" ? <p className="error-text">This is an environment template; submit a job template.</p> : null}
      </section>
      {template && job ? <SubmitForm key={loads} template={template} job={job} /> : null}
    </>
  );
}

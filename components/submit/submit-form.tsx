"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useMemo, useState, type FormEvent } from "react";
import { buildParameterForm, fieldErrors, initialValues, type JobTemplate, parameterInputs } from "@/lib/openjd";
import { useTRPC } from "@/components/trpc";
import { maxPriorityFor } from "@/lib/farm/access";
import { useMe } from "@/components/auth/me";
import { DEFAULT_SETTINGS, readSettings, type SettingsText } from "./job-settings";
import { JobSettingsFields } from "./job-settings-fields";
import { ParameterFields } from "./parameter-fields";
import { ErrorList, PreviewSteps } from "./preview-panel";
import { savedValues } from "./saved-values";
import type { LoadedTemplate } from "./template-picker";

interface Props {
  template: LoadedTemplate;
  job: JobTemplate;
}

/**
 * The generated form, job settings, Preview and Submit. Submit is offered only for the inputs
 * last previewed, so the artist has seen the steps, counts and pools of exactly what they send.
 */
export function SubmitForm({ template, job }: Props) {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const me = useMe();
  const maxPriority = me ? maxPriorityFor(me) : 0;
  const form = useMemo(() => buildParameterForm(job.parameterDefinitions), [job]);
  const [values, setValues] = useState(() => ({ ...initialValues(form), ...savedValues(form, template.values) }));
  const [touched, setTouched] = useState<ReadonlySet<string>>(new Set());
  const [showAll, setShowAll] = useState(false);
  const [settingsText, setSettingsText] = useState<SettingsText>(DEFAULT_SETTINGS);

  const errors = useMemo(() => fieldErrors(form, values), [form, values]);
  const shown = showAll ? errors : Object.fromEntries(Object.entries(errors).filter(([name]) => touched.has(name)));
  const settings = readSettings(settingsText, maxPriority);
  const request = { template: { text: template.text, format: template.format }, parameterValues: parameterInputs(form, values), settings: settings.settings };
  const requestKey = JSON.stringify([request.parameterValues, request.settings]);
  const problems = Object.keys(errors).length + Object.keys(settings.errors).length;

  const preview = useMutation(trpc.jobs.preview.mutationOptions());
  const [previewedKey, setPreviewedKey] = useState<string | null>(null);
  const submit = useMutation(
    trpc.jobs.submit.mutationOptions({
      onSuccess: async (result) => {
        if (!result.ok) return;
        await queryClient.invalidateQueries(trpc.jobs.pathFilter());
        router.push(`/jobs/${result.jobId}`);
      },
    }),
  );
  const current = previewedKey === requestKey;
  const canSubmit = problems === 0 && current && preview.data?.ok === true && !submit.isPending && !submit.data?.ok;

  const onPreview = (e: FormEvent) => {
    e.preventDefault();
    setShowAll(true);
    if (problems > 0) return;
    setPreviewedKey(requestKey);
    submit.reset();
    preview.mutate(request);
  };
  const change = (name: string, value: string) => {
    setValues((v) => ({ ...v, [name]: value }));
    setTouched((t) => (t.has(name) ? t : new Set(t).add(name)));
  };

  return (
    <form onSubmit={onPreview} noValidate>
      <section aria-labelledby="parameters-heading">
        <h2 id="parameters-heading">Parameters</h2>
        <ParameterFields form={form} values={values} errors={shown} onChange={change} />
      </section>
      <section aria-label="Job settings">
        <JobSettingsFields value={settingsText} maxPriority={maxPriority} errors={settings.errors} onChange={setSettingsText} />
      </section>
      <section aria-labelledby="preview-heading">
        <h2 id="preview-heading">Preview</h2>
        <div className="toolbar">
          <button type="submit" disabled={preview.isPending}>
            {preview.isPending ? "Previewing…" : "Preview"}
          </button>
          <button type="button" className="primary" disabled={!canSubmit} aria-describedby="submit-hint" onClick={() => submit.mutate(request)}>
            {submit.isPending || submit.data?.ok ? "Submitting…" : "Submit"}
          </button>
          <span id="submit-hint" className="muted">
            {problems > 0 && showAll
              ? `Fix ${problems} problem${problems === 1 ? "" : "s"} in the form first.`
              : !current || !preview.data
                ? "Preview the job to submit it."
                : preview.data.ok
                  ? "Submits exactly what the preview shows."
                  : ""}
          </span>
        </div>
        {preview.error ? (
          <p className="error-text" role="alert">
            Preview failed: {preview.error.message}
          </p>
        ) : null}
        {submit.error ? (
          <p className="error-text" role="alert">
            Submit failed: {submit.error.message}
          </p>
        ) : null}
        {submit.data && !submit.data.ok ? <ErrorList errors={submit.data.errors} title="The farm refused the job" /> : null}
        {preview.data && !current ? <p className="muted">The form changed since this preview.</p> : null}
        {preview.data ? (
          preview.data.ok ? (
            <PreviewSteps name={preview.data.name} taskCount={preview.data.taskCount} steps={preview.data.steps} />
          ) : (
            <ErrorList errors={preview.data.errors} title="The job cannot be submitted" />
          )
        ) : null}
      </section>
    </form>
  );
}

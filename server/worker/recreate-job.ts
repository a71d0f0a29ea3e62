/**
 * A worker rebuilds the submitted job from its definition (template text, environment templates,
 * the resolved parameter values) with the same lib/openjd the server used, so both sides agree
 * on steps, environments and parameter spaces. Jobs are cached per job id: every Session of a
 * job shares one.
 */
import type { JobDefinition } from "../../lib/farm/protocol";
import { checkTemplateText, createJob, type EnvironmentTemplate, type Job, type JobTemplate, type Template } from "../../lib/openjd";

export type RecreatedJob = { ok: true; job: Job } | { ok: false; message: string };

export function recreateJob(definition: JobDefinition): RecreatedJob {
  const template = decode(definition.templateText, definition.templateFormat, "job", "the job template");
  if (typeof template === "string") return { ok: false, message: template };
  const environmentTemplates: EnvironmentTemplate[] = [];
  for (const [index, t] of definition.environmentTemplates.entries()) {
    const decoded = decode(t.text, t.format, "environment", `environment template ${index}`);
    if (typeof decoded === "string") return { ok: false, message: decoded };
    environmentTemplates.push(decoded);
  }
  const created = createJob({
    template,
    environmentTemplates,
    // The stored values are already resolved (PATHs absolute), so they come back unchanged.
    parameterValues: Object.fromEntries(Object.entries(definition.parameters).map(([name, p]) => [name, p.value])),
    pathFlavor: "posix",
  });
  if (!created.ok) return { ok: false, message: `cannot create job ${definition.id}: ${created.errors.map((e) => [e.segments.join("."), e.message].filter(Boolean).join(": ")).join("; ")}` };
  return { ok: true, job: created.job };
}

function decode(text: string, format: "yaml" | "json", kind: "job", what: string): JobTemplate | string;
function decode(text: string, format: "yaml" | "json", kind: "environment", what: string): EnvironmentTemplate | string;
function decode(text: string, format: "yaml" | "json", kind: Template["kind"], what: string): JobTemplate | EnvironmentTemplate | string {
  const checked = checkTemplateText(text, format, kind);
  if (checked.template?.kind === kind) return checked.template.template;
  const problems = checked.errors.map((e) => `${e.path}${e.line !== null ? ` (line ${e.line})` : ""}: ${e.message}`);
  return `${what} is invalid: ${problems.join("; ") || `not a ${kind} template`}`;
}

/** Recreated jobs by job id, the most recently used kept. */
export class JobCache {
  private readonly jobs = new Map<string, RecreatedJob>();

  constructor(private readonly capacity = 16) {}

  get(definition: JobDefinition): RecreatedJob {
    let job = this.jobs.get(definition.id);
    if (job) this.jobs.delete(definition.id);
    else job = recreateJob(definition);
    this.jobs.set(definition.id, job);
    for (const oldest of this.jobs.keys()) {
      if (this.jobs.size <= this.capacity) break;
      this.jobs.delete(oldest);
    }
    return job;
  }
}

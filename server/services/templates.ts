/**
 * The template library's use cases: save (from the editor, an upload or a paste), import a job
 * bundle (.zip, with its parameter values), delete. Every template is read with lib/openjd
 * first: one that is not a readable job or environment template is refused with its located
 * errors, so the library never holds something the editor and submit form cannot open.
 */
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { DocumentFormat } from "../../lib/openjd/parse-source";
import type { InspectedTemplate, TemplateKind } from "../checks/inspect-template-text";
import { inspectOffLoop, readBundleOffLoop } from "../checks/run-checks";
import { templates } from "../db/schema";
import { decide, type Caller } from "../../lib/farm/access";
import { audit, type Actor } from "./audit";
import { AppError } from "./errors";
import type { Farm } from "./farm";

export type { InspectedTemplate, TemplateKind } from "../checks/inspect-template-text";

/**
 * What lib/openjd makes of a text: its kind and errors, or why it is not a template at all.
 * Checked on a check thread within the farm's budget, counted against `owner` (a user id).
 */
export function inspectTemplate(farm: Farm, owner: string, text: string, format: DocumentFormat): Promise<InspectedTemplate> {
  return inspectOffLoop(farm, owner, text, format);
}

export interface SaveTemplateInput {
  name: string;
  text: string;
  format: DocumentFormat;
  parameterValues?: Record<string, unknown>;
}

export interface SavedTemplate {
  id: string;
  name: string;
  kind: TemplateKind;
  errorCount: number;
  /** True when a template of that name was already in the library and now holds this text. */
  replaced: boolean;
}

const NAME_MAX = 128;

function checkName(raw: string): string {
  const name = raw.trim();
  // eslint-disable-next-line no-control-regex
  if (name === "" || name.length > NAME_MAX || /[\u0000-\u001f\u007f-\u009f]/.test(name)) {
    throw new AppError("BAD_REQUEST", `a template name must be 1–${NAME_MAX} characters with no control characters`);
  }
  return name;
}

/** Who saves: the owner of a new entry; replacing someone else's needs a wrangler. */
export interface TemplateAuthor {
  caller: Caller;
  actor: Actor;
}

/** Saves under `name`; saving again under the same name replaces that entry (as saving a file does). */
export async function saveTemplate(farm: Farm, input: SaveTemplateInput, author: TemplateAuthor): Promise<SavedTemplate> {
  const name = checkName(input.name);
  return store(farm, name, input, await inspectTemplate(farm, author.caller.userId, input.text, input.format), author);
}

function store(farm: Farm, name: string, input: SaveTemplateInput, inspected: InspectedTemplate, author: TemplateAuthor): SavedTemplate {
  if (!inspected.readable) {
    const first = inspected.errors[0];
    const where = first?.line ? ` (${first.line}:${first.column ?? 1})` : "";
    throw new AppError("BAD_REQUEST", `not a readable job or environment template${where}: ${first?.message ?? "no specificationVersion"}`, { errors: inspected.errors });
  }
  const now = farm.now();
  const db = farm.store.db;
  const values = {
    kind: inspected.kind,
    format: input.format,
    text: input.text,
    parameterValues: input.parameterValues ?? {},
    errorCount: inspected.errors.length,
    updatedAt: now,
  };
  return db.transaction((tx) => {
    const existing = tx.select({ id: templates.id, ownerId: templates.ownerId }).from(templates).where(eq(templates.name, name)).get();
    if (existing) {
      const verdict = decide(author.caller, { kind: "ownTemplate", key: "name" }, existing.ownerId);
      if (!verdict.ok) throw new AppError("FORBIDDEN", `a template named '${name}' is someone else's: save under another name (${verdict.message})`);
      tx.update(templates).set(values).where(eq(templates.id, existing.id)).run();
      audit(farm, author.actor, { action: "template.save", target: { kind: "template", id: existing.id }, after: { name, kind: inspected.kind, replaced: true } });
      return { id: existing.id, name, kind: inspected.kind, errorCount: values.errorCount, replaced: true };
    }
    const id = `tpl-${randomBytes(5).toString("hex")}`;
    tx.insert(templates).values({ id, name, ...values, createdAt: now, ownerId: author.caller.userId }).run();
    audit(farm, author.actor, { action: "template.save", target: { kind: "template", id }, after: { name, kind: inspected.kind, replaced: false } });
    return { id, name, kind: inspected.kind, errorCount: values.errorCount, replaced: false };
  });
}

/** A job bundle .zip (as uploaded): its template, kept with the bundle's parameter values; read on a check thread. */
export async function importBundle(farm: Farm, input: { fileName: string; base64: string; name?: string }, author: TemplateAuthor): Promise<SavedTemplate> {
  const read = await readBundleOffLoop(farm, author.caller.userId, input.base64, input.fileName);
  if (!read.ok) {
    const { file, line, column, message } = read.error;
    throw new AppError("BAD_REQUEST", `${file}${line ? ` (${line}:${column ?? 1})` : ""}: ${message}`, { bundleError: read.error });
  }
  const { template, parameterValues, inspected } = read;
  const fallback = input.fileName.replace(/\.zip$/i, "") || "bundle";
  const name = checkName(input.name?.trim() || (inspected.readable ? inspected.jobName : null) || fallback);
  return store(farm, name, { name, text: template.text, format: template.format, parameterValues }, inspected, author);
}

export function deleteTemplate(farm: Farm, id: string, actor: Actor): { deleted: string } {
  return farm.store.db.transaction((tx) => {
    const existing = tx.select({ name: templates.name }).from(templates).where(eq(templates.id, id)).get();
    if (!existing) throw new AppError("NOT_FOUND", `no template ${id}`);
    tx.delete(templates).where(eq(templates.id, id)).run();
    audit(farm, actor, { action: "template.delete", target: { kind: "template", id }, before: { name: existing.name } });
    return { deleted: id };
  });
}

/**
 * The template library's use cases: save (from the editor, an upload or a paste), import a job
 * bundle (.zip, with its parameter values), delete. Every template is read with lib/openjd
 * first: one that is not a readable job or environment template is refused with its located
 * errors, so the library never holds something the editor and submit form cannot open.
 */
import { randomBytes } from "node:crypto";
import type { DocumentFormat } from "../../lib/openjd";
import type { InspectedTemplate, TemplateKind } from "../checks/inspect-template-text";
import { inspectOffLoop, readBundleOffLoop } from "../checks/run-checks";
import { formatTimestamp } from "../../lib/farm/display";
import { decide, type Caller } from "../../lib/farm/access";
import type { ReadTx, Tx } from "../store/repository";
import { templatesRepository } from "../store/templates";
import { audit, type Actor } from "./audit";
import { AppError } from "../context/errors";
import type { Farm } from "../context/farm";

export type { InspectedTemplate, TemplateKind } from "../checks/inspect-template-text";

/**
 * What lib/openjd makes of a text: its kind and errors, or why it is not a template at all.
 * Checked on a check thread within the farm's budget, counted against `owner` (a user id).
 */
export function inspectTemplate(farm: Farm, owner: string, text: string, format: DocumentFormat): Promise<InspectedTemplate> {
  return inspectOffLoop(farm, owner, text, format);
}

/**
 * What to do when the library already holds the name (issue 11: an upload silently replaced an
 * entry). Neither: the save is refused with CONFLICT and the entry it met. `replace` names the
 * entry and the version the caller saw, so a second tab that saved in between is not clobbered
 * either; `keepBoth` saves under the first free "name (2)", "name (3)"…
 */
export interface OnExisting {
  replace?: { id: string; updatedAt: number };
  keepBoth?: boolean;
}

export interface SaveTemplateInput extends OnExisting {
  name: string;
  text: string;
  format: DocumentFormat;
  parameterValues?: Record<string, unknown>;
}

/** The entry a save met, in the CONFLICT's details: what the portal's question shows. */
export interface ExistingTemplate {
  id: string;
  name: string;
  ownerName: string | null;
  updatedAt: number;
  /** Whether this caller may replace it (its owner, or a wrangler or admin). */
  mayReplace: boolean;
}

export interface SavedTemplate {
  id: string;
  name: string;
  kind: TemplateKind;
  errorCount: number;
  /** True when a template of that name was already in the library and now holds this text. */
  replaced: boolean;
  /** The saved version (what a later `replace` names). */
  updatedAt: number;
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

/** Saves under `name`; an entry of that name is replaced or kept beside only as `input` says (OnExisting). */
export async function saveTemplate(farm: Farm, input: SaveTemplateInput, author: TemplateAuthor): Promise<SavedTemplate> {
  const name = checkName(input.name);
  return store(farm, name, input, await inspectTemplate(farm, author.caller.userId, input.text, input.format), author);
}

async function store(farm: Farm, name: string, input: SaveTemplateInput, inspected: InspectedTemplate, author: TemplateAuthor): Promise<SavedTemplate> {
  if (!inspected.readable) {
    const first = inspected.errors[0];
    const where = first?.line ? ` (${first.line}:${first.column ?? 1})` : "";
    throw new AppError("BAD_REQUEST", `not a readable job or environment template${where}: ${first?.message ?? "no specificationVersion"}`, { errors: inspected.errors });
  }
  const now = farm.now();
  const values = {
    kind: inspected.kind,
    format: input.format,
    text: input.text,
    parameterValues: input.parameterValues ?? {},
    errorCount: inspected.errors.length,
    updatedAt: now,
  };
  if (input.replace && input.keepBoth) throw new AppError("BAD_REQUEST", "keepBoth: give replace or keepBoth, not both");
  const save = async (tx: Tx): Promise<SavedTemplate> => {
    let saveAs = name;
    const existing = await templatesRepository.byName(tx, name);
    if (existing && input.keepBoth) saveAs = await freeName(tx, name);
    else if (existing) {
      const verdict = decide(author.caller, { kind: "ownTemplate", key: "name" }, existing.ownerId);
      const seen = input.replace?.id === existing.id && input.replace.updatedAt === existing.updatedAt;
      if (!seen) {
        const met: ExistingTemplate = { id: existing.id, name, ownerName: existing.ownerName, updatedAt: existing.updatedAt, mayReplace: verdict.ok };
        const changed = input.replace ? " (it changed since you asked)" : "";
        throw new AppError(
          "CONFLICT",
          `a template named '${name}' exists${changed}, saved by ${met.ownerName ?? "nobody"} on ${formatTimestamp(met.updatedAt)}: replace it, keep both, or save under another name`,
          { existing: met },
        );
      }
      if (!verdict.ok) throw new AppError("FORBIDDEN", `a template named '${name}' is someone else's: save under another name (${verdict.message})`);
      // updatedAt is the version `replace` names: it moves on even for two saves in one millisecond.
      const updatedAt = Math.max(now, existing.updatedAt + 1);
      await templatesRepository.replace(tx, existing.id, { ...values, updatedAt });
      await audit(tx, farm, author.actor, { action: "template.save", target: { kind: "template", id: existing.id }, after: { name, kind: inspected.kind, replaced: true } });
      return { id: existing.id, name, kind: inspected.kind, errorCount: values.errorCount, replaced: true, updatedAt };
    }
    const id = `tpl-${randomBytes(5).toString("hex")}`;
    await templatesRepository.insert(tx, { id, name: saveAs, ...values, createdAt: now, ownerId: author.caller.userId });
    await audit(tx, farm, author.actor, { action: "template.save", target: { kind: "template", id }, after: { name: saveAs, kind: inspected.kind, replaced: false } });
    return { id, name: saveAs, kind: inspected.kind, errorCount: values.errorCount, replaced: false, updatedAt: now };
  };
  // The name taken by a unit that inserted it after this one looked (PostgreSQL): that unit has
  // committed by then, so the save runs again and meets its entry as a later save would (CONFLICT,
  // or keepBoth's next free name). Each time round another save took a name: it ends.
  for (;;) {
    try {
      return await farm.store.transaction(save);
    } catch (error) {
      if (!templatesRepository.isDuplicateName(error)) throw error;
    }
  }
}

/** `name (2)`, `name (3)`, …: the first the library does not hold (read in the saving unit of work). */
async function freeName(tx: ReadTx, name: string): Promise<string> {
  for (let n = 2; ; n++) {
    const suffix = ` (${n})`;
    const candidate = `${name.slice(0, NAME_MAX - suffix.length)}${suffix}`;
    if (!(await templatesRepository.nameTaken(tx, candidate))) return candidate;
  }
}

/** A bundle as the caller sent it: a .zip (base64), or a folder's bundle files as texts. */
export type SentBundle = { fileName: string; base64: string } | { folderName: string; files: Record<string, string> };

/** The bundle's template and parameter values, for /submit's form (nothing is kept); read on a check thread. */
export async function openBundle(
  farm: Farm,
  input: SentBundle,
  caller: Caller,
): Promise<{ source: string; template: { text: string; format: DocumentFormat }; parameterValues: Record<string, unknown> }> {
  const source = "files" in input ? input.folderName : input.fileName;
  const read = "files" in input ? await readBundleOffLoop(farm, caller.userId, "", source, input.files) : await readBundleOffLoop(farm, caller.userId, input.base64, source);
  if (!read.ok) throw bundleRefused(read.error);
  return { source, template: read.template, parameterValues: read.parameterValues };
}

function bundleRefused({ file, line, column, message, ...rest }: { file: string; line: number | null; column: number | null; message: string; path: string }): AppError {
  return new AppError("BAD_REQUEST", `${file}${line ? ` (${line}:${column ?? 1})` : ""}: ${message}`, { bundleError: { file, line, column, message, ...rest } });
}

/** A job bundle .zip (as uploaded): its template, kept with the bundle's parameter values; read on a check thread. */
export async function importBundle(farm: Farm, input: { fileName: string; base64: string; name?: string } & OnExisting, author: TemplateAuthor): Promise<SavedTemplate> {
  const read = await readBundleOffLoop(farm, author.caller.userId, input.base64, input.fileName);
  if (!read.ok) throw bundleRefused(read.error);
  const { template, parameterValues, inspected } = read;
  const fallback = input.fileName.replace(/\.zip$/i, "") || "bundle";
  const name = checkName(input.name?.trim() || (inspected.readable ? inspected.jobName : null) || fallback);
  return store(farm, name, { name, text: template.text, format: template.format, parameterValues, replace: input.replace, keepBoth: input.keepBoth }, inspected, author);
}

export function deleteTemplate(farm: Farm, id: string, actor: Actor): Promise<{ deleted: string }> {
  return farm.store.transaction(async (tx) => {
    const name = await templatesRepository.nameOf(tx, id);
    if (name === undefined) throw new AppError("NOT_FOUND", `no template ${id}`);
    await templatesRepository.delete(tx, id);
    await audit(tx, farm, actor, { action: "template.delete", target: { kind: "template", id }, before: { name } });
    return { deleted: id };
  });
}

/** Read models of the template library: the table of saved templates, and one template to open. */
import { desc, eq } from "drizzle-orm";
import type { TemplateError } from "../../lib/openjd/errors";
import { templates } from "../db/schema";
import { AppError } from "../services/errors";
import type { Farm } from "../services/farm";
import { inspectTemplate, type TemplateKind } from "../services/templates";

export interface TemplateRow {
  id: string;
  name: string;
  kind: TemplateKind;
  format: "yaml" | "json";
  /** Who saved it first (artists delete only their own); null for templates from before accounts. */
  ownerId: string | null;
  errorCount: number;
  parameterValueCount: number;
  createdAt: number;
  updatedAt: number;
}

/** Most recently saved first. */
export function listTemplates(farm: Farm): TemplateRow[] {
  return farm.store.db
    .select()
    .from(templates)
    .orderBy(desc(templates.updatedAt), templates.name)
    .all()
    .map(({ text: _text, parameterValues, ...row }) => ({ ...row, parameterValueCount: Object.keys(parameterValues).length }));
}

export interface TemplateDetail extends TemplateRow {
  text: string;
  parameterValues: Record<string, unknown>;
  /** Checked again on every read, so a template saved before a validator fix shows today's errors. */
  errors: TemplateError[];
}

/** The check runs on a check thread, counted against `reader` (a user id): a stored template may be slow to check. */
export async function getTemplate(farm: Farm, id: string, reader: string): Promise<TemplateDetail> {
  const row = farm.store.db.select().from(templates).where(eq(templates.id, id)).get();
  if (!row) throw new AppError("NOT_FOUND", `no template ${id}`);
  const errors = (await inspectTemplate(farm, reader, row.text, row.format)).errors;
  return { ...row, parameterValueCount: Object.keys(row.parameterValues).length, errorCount: errors.length, errors };
}

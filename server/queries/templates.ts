/** Read models of the template library: the table of saved templates, and one template to open. */
import type { TemplateError } from "../../lib/openjd";
import { AppError } from "../context/errors";
import type { Farm } from "../context/farm";
import { inspectOffLoop } from "../checks/run-checks";
import type { TemplateKind } from "../checks/inspect-template-text";
import { templateQueriesRepository } from "../store/template-queries";

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

/**
 * Most recently saved first. Neither the texts (up to 4 MiB each) nor the saved values are read:
 * SQLite counts the values, so listing a library of big templates costs the event loop nothing of
 * their size.
 */
export function listTemplates(farm: Farm): Promise<TemplateRow[]> {
  return farm.store.read((tx) => templateQueriesRepository.list(tx));
}

export interface TemplateDetail extends TemplateRow {
  text: string;
  parameterValues: Record<string, unknown>;
  /** Checked again on every read, so a template saved before a validator fix shows today's errors. */
  errors: TemplateError[];
}

/**
 * The check runs on a check thread, counted against `reader` (a user id): a stored template may be
 * slow to check, so it runs after the read, with no unit held.
 */
export async function getTemplate(farm: Farm, id: string, reader: string): Promise<TemplateDetail> {
  const row = await farm.store.read((tx) => templateQueriesRepository.byId(tx, id));
  if (!row) throw new AppError("NOT_FOUND", `no template ${id}`);
  const errors = (await inspectOffLoop(farm, reader, row.text, row.format)).errors;
  return { ...row, parameterValueCount: Object.keys(row.parameterValues).length, errorCount: errors.length, errors };
}

/** Read models of the template library (server/queries/templates.ts): the table of saved templates, and one template to open. */
import type { templates } from "../db/schema";
import { perEngine, type ReadTx } from "./repository";

export type TemplateRecord = typeof templates.$inferSelect;

/** A row of the library's table: the entry without its text and values, with how many values it saves. */
export type TemplateListRow = Omit<TemplateRecord, "text" | "parameterValues"> & { parameterValueCount: number };

const COLUMNS = `id, name, kind, format, owner_id AS "ownerId", error_count AS "errorCount", created_at AS "createdAt", updated_at AS "updatedAt"`;
// parameter_values is a JSON object: its keys counted.
const LIST = perEngine(
  (d) =>
    `SELECT ${COLUMNS}, (SELECT COUNT(*) FROM ${d.engine === "sqlite" ? "json_each(parameter_values)" : "json_object_keys(CAST(parameter_values AS json))"}) AS "parameterValueCount" FROM templates ORDER BY updated_at DESC, name`,
);
const BY_ID = `SELECT ${COLUMNS}, text, parameter_values AS "parameterValues" FROM templates WHERE id = ?`;

export const templateQueriesRepository = {
  /**
   * Most recently saved first. Neither the texts (up to 4 MiB each) nor the saved values are
   * read: SQLite counts the values, so listing a library of big templates costs the event loop
   * nothing of their size.
   */
  list: (tx: ReadTx): Promise<TemplateListRow[]> => tx.all<TemplateListRow>(LIST[tx.engine]),
  /** One template with its text and parameter values (parsed from the JSON column's text). */
  async byId(tx: ReadTx, id: string): Promise<TemplateRecord | undefined> {
    const row = await tx.get<Omit<TemplateRecord, "parameterValues"> & { parameterValues: string }>(BY_ID, [id]);
    return row && { ...row, parameterValues: JSON.parse(row.parameterValues) as TemplateRecord["parameterValues"] };
  },
};

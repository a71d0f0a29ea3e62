/**
 * Writing the template library (server/services/templates.ts): the entry a save meets by name,
 * the free "name (n)" a save that keeps both takes, inserting, replacing and deleting entries.
 * The saved parameter values (a JSON column) are written as their JSON text, as drizzle's json
 * mode stores them.
 */
import type { RunResult } from "./engine/engine";
import type { templates } from "../db/schema";
import type { ReadTx, Tx } from "./repository";
import { isUniqueViolation } from "./unique-violation";

export type NewTemplate = typeof templates.$inferInsert;

/** What a save replaces of an entry: everything but its id, name, owner and creation time. */
export type TemplateContent = Pick<NewTemplate, "kind" | "format" | "text" | "parameterValues" | "errorCount" | "updatedAt">;

/** An entry as a save meets it by name, with its owner's name (null: no owner, or the account is gone). */
export interface TemplateByName {
  id: string;
  ownerId: string | null;
  updatedAt: number;
  ownerName: string | null;
}

const BY_NAME = `SELECT t.id, t.owner_id AS "ownerId", t.updated_at AS "updatedAt", u.name AS "ownerName"
   FROM templates t LEFT JOIN users u ON u.id = t.owner_id WHERE t.name = ?`;
const NAME_TAKEN = "SELECT id FROM templates WHERE name = ?";
const NAME_OF = "SELECT name FROM templates WHERE id = ?";
const NAME_KEY = { columns: "templates.name", name: "templates_name" };
const INSERT = `INSERT INTO templates (id, name, kind, format, text, parameter_values, error_count, created_at, updated_at, owner_id)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const REPLACE = "UPDATE templates SET kind = ?, format = ?, text = ?, parameter_values = ?, error_count = ?, updated_at = ? WHERE id = ?";
const DELETE = "DELETE FROM templates WHERE id = ?";

export const templatesRepository = {
  /** The entry of that name with its owner's name (null: no owner, or the account is gone). */
  byName: (tx: ReadTx, name: string): Promise<TemplateByName | undefined> => tx.get<TemplateByName>(BY_NAME, [name]),
  /** Whether the library holds an entry of that name. */
  nameTaken: async (tx: ReadTx, name: string): Promise<boolean> => (await tx.get(NAME_TAKEN, [name])) !== undefined,
  nameOf: async (tx: ReadTx, id: string): Promise<string | undefined> => (await tx.get<{ name: string }>(NAME_OF, [id]))?.name,
  insert(tx: Tx, template: NewTemplate): Promise<RunResult> {
    return tx.run(INSERT, [
      template.id,
      template.name,
      template.kind,
      template.format,
      template.text,
      JSON.stringify(template.parameterValues),
      template.errorCount,
      template.createdAt,
      template.updatedAt,
      template.ownerId ?? null,
    ]);
  },
  /** Whether `error` is insert's refusal of a name another unit took since this one looked (byName, nameTaken). */
  isDuplicateName: (error: unknown): boolean => isUniqueViolation(error, NAME_KEY),
  replace(tx: Tx, id: string, content: TemplateContent): Promise<RunResult> {
    return tx.run(REPLACE, [content.kind, content.format, content.text, JSON.stringify(content.parameterValues), content.errorCount, content.updatedAt, id]);
  },
  delete(tx: Tx, id: string): Promise<RunResult> {
    return tx.run(DELETE, [id]);
  },
};

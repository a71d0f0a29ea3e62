/**
 * Writing the template library (server/services/templates.ts): the entry a save meets by name,
 * the free "name (n)" a save that keeps both takes, inserting, replacing and deleting entries.
 */
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { templates, users } from "../db/schema";
import { repository } from "./repository";

export type NewTemplate = typeof templates.$inferInsert;

/** What a save replaces of an entry: everything but its id, name, owner and creation time. */
export type TemplateContent = Pick<NewTemplate, "kind" | "format" | "text" | "parameterValues" | "errorCount" | "updatedAt">;

export const templatesRepository = repository((sqlite) => {
  // The query builder, for the JSON column; the same connection.
  const db = drizzle(sqlite);
  return {
    /** The entry of that name with its owner's name (null: no owner, or the account is gone). */
    byName: (name: string) =>
      db
        .select({ id: templates.id, ownerId: templates.ownerId, updatedAt: templates.updatedAt, ownerName: users.name })
        .from(templates)
        .leftJoin(users, eq(users.id, templates.ownerId))
        .where(eq(templates.name, name))
        .get(),
    /** Whether the library holds an entry of that name. */
    nameTaken: (name: string): boolean => db.select({ id: templates.id }).from(templates).where(eq(templates.name, name)).get() !== undefined,
    nameOf: (id: string): string | undefined => db.select({ name: templates.name }).from(templates).where(eq(templates.id, id)).get()?.name,
    insert(template: NewTemplate): void {
      db.insert(templates).values(template).run();
    },
    replace(id: string, content: TemplateContent): void {
      db.update(templates).set(content).where(eq(templates.id, id)).run();
    },
    delete(id: string): void {
      db.delete(templates).where(eq(templates.id, id)).run();
    },
  };
});

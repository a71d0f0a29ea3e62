/** Read models of the template library (server/queries/templates.ts): the table of saved templates, and one template to open. */
import { desc, eq, sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { templates } from "../db/schema";
import { repository } from "./repository";

export type TemplateRecord = typeof templates.$inferSelect;

export const templateQueriesRepository = repository((sqlite) => {
  // The query builder, for the JSON column; the same connection.
  const db = drizzle(sqlite);
  return {
    /**
     * Most recently saved first. Neither the texts (up to 4 MiB each) nor the saved values are
     * read: SQLite counts the values, so listing a library of big templates costs the event loop
     * nothing of their size.
     */
    list: () =>
      db
        .select({
          id: templates.id,
          name: templates.name,
          kind: templates.kind,
          format: templates.format,
          ownerId: templates.ownerId,
          errorCount: templates.errorCount,
          parameterValueCount: sql<number>`(SELECT COUNT(*) FROM json_each(${templates.parameterValues}))`,
          createdAt: templates.createdAt,
          updatedAt: templates.updatedAt,
        })
        .from(templates)
        .orderBy(desc(templates.updatedAt), templates.name)
        .all(),
    /** One template with its text and parameter values (parsed). */
    byId: (id: string): TemplateRecord | undefined => db.select().from(templates).where(eq(templates.id, id)).get(),
  };
});

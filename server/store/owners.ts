/**
 * Who owns a job or a template, as the router's owner rules read it before a call runs
 * (server/auth/owners.ts). Its own statements: the jobs' and templates' repositories are the
 * services' to shape.
 */
import type { jobs } from "../db/schema";
import { repository } from "./repository";
import type { RawPick } from "./rows";

/** owner_id null: owned by nobody (made before accounts existed). Templates' owner_id is the same column. */
export type Owned = RawPick<typeof jobs, "owner_id">;

export const ownersRepository = repository((sqlite) => {
  const job = sqlite.prepare<[string], Owned>("SELECT owner_id FROM jobs WHERE id = ?");
  const templateById = sqlite.prepare<[string], Owned>("SELECT owner_id FROM templates WHERE id = ?");
  const templateByName = sqlite.prepare<[string], Owned>("SELECT owner_id FROM templates WHERE name = ?");
  return {
    /** undefined: no such job. */
    ofJob: (jobId: string): Owned | undefined => job.get(jobId),
    /** undefined: no such template. */
    ofTemplateById: (templateId: string): Owned | undefined => templateById.get(templateId),
    ofTemplateByName: (name: string): Owned | undefined => templateByName.get(name),
  };
});

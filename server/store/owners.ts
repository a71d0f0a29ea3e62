/**
 * Who owns a job or a template, as the router's owner rules read it before a call runs
 * (server/auth/owners.ts). Its own statements: the jobs' and templates' repositories are the
 * services' to shape.
 */
import type { jobs } from "../db/schema";
import type { ReadTx } from "./repository";
import type { RawPick } from "./rows";

/** owner_id null: owned by nobody (made before accounts existed). Templates' owner_id is the same column. */
export type Owned = RawPick<typeof jobs, "owner_id">;

const JOB = "SELECT owner_id FROM jobs WHERE id = ?";
const TEMPLATE_BY_ID = "SELECT owner_id FROM templates WHERE id = ?";
const TEMPLATE_BY_NAME = "SELECT owner_id FROM templates WHERE name = ?";

export const ownersRepository = {
  /** undefined: no such job. */
  ofJob: (tx: ReadTx, jobId: string): Promise<Owned | undefined> => tx.get<Owned>(JOB, [jobId]),
  /** undefined: no such template. */
  ofTemplateById: (tx: ReadTx, templateId: string): Promise<Owned | undefined> => tx.get<Owned>(TEMPLATE_BY_ID, [templateId]),
  ofTemplateByName: (tx: ReadTx, name: string): Promise<Owned | undefined> => tx.get<Owned>(TEMPLATE_BY_NAME, [name]),
};

/**
 * The audit log for the admin page and its export: filtered by actor, action, target, outcome
 * and time, newest first, paged by id (stable while new rows arrive).
 */
import { z } from "zod";
import { ACTOR_KINDS, AUDIT_ACTIONS, AUDIT_OUTCOMES } from "../../lib/farm/audit-actions";
import type { Farm } from "../context/farm";
import { auditLogRepository, type AuditLogRow } from "../store/audit-log";

export const listAuditInput = z.object({
  actor: z.string().max(100).optional(),
  actorKind: z.enum(ACTOR_KINDS).optional(),
  action: z.enum(AUDIT_ACTIONS).optional(),
  /** A prefix of actions, e.g. "job." or "auth.". */
  actionGroup: z
    .string()
    .regex(/^[a-z]+\.$/)
    .optional(),
  target: z.string().max(200).optional(),
  outcome: z.enum(AUDIT_OUTCOMES).optional(),
  from: z.number().int().optional(),
  to: z.number().int().optional(),
  /** Rows older than this id (the previous page's last). */
  before: z.number().int().positive().optional(),
  limit: z.number().int().min(1).max(500).default(100),
});
export type ListAuditInput = z.infer<typeof listAuditInput>;

export interface AuditRow {
  id: number;
  time: number;
  actorKind: string;
  actorName: string;
  via: string | null;
  action: string;
  targetKind: string | null;
  targetId: string | null;
  outcome: string;
  before: unknown;
  after: unknown;
  detail: string | null;
  address: string | null;
  userAgent: string | null;
}

function parse(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function view(row: AuditLogRow): AuditRow {
  return {
    id: row.id,
    time: row.time,
    actorKind: row.actor_kind,
    actorName: row.actor_name,
    via: row.via,
    action: row.action,
    targetKind: row.target_kind,
    targetId: row.target_id,
    outcome: row.outcome,
    before: parse(row.before),
    after: parse(row.after),
    detail: row.detail,
    address: row.address,
    userAgent: row.user_agent,
  };
}

export async function listAudit(farm: Farm, input: ListAuditInput): Promise<{ rows: AuditRow[]; next: number | null }> {
  const rows = await farm.store.read((tx) => auditLogRepository.page(tx, input, input.limit + 1));
  const page = rows.slice(0, input.limit).map(view);
  return { rows: page, next: rows.length > input.limit ? (page.at(-1)?.id ?? null) : null };
}

/** Every matching row, newest first, a page at a time (the export streams them; each page is its own read, none held across a yield). */
export async function* auditPages(farm: Farm, filter: Omit<ListAuditInput, "limit" | "before">): AsyncGenerator<AuditRow[]> {
  let before: number | undefined;
  for (;;) {
    const page = await listAudit(farm, { ...filter, ...(before !== undefined ? { before } : {}), limit: 500 });
    if (page.rows.length > 0) yield page.rows;
    if (page.next === null) return;
    before = page.next;
  }
}

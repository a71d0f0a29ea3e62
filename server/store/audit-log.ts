/**
 * The audit log (the audit_log table): append-only rows, written inside the transaction of the
 * change they record; the refused sign-ins the rate limits count; the admin page's filtered,
 * paged reading.
 */
import type { RunResult } from "./engine/engine";
import type { auditLog } from "../db/schema";
import type { ReadTx, Tx } from "./repository";
import type { Raw } from "./rows";

export type AuditLogRow = Raw<typeof auditLog>;

/** A row to append, as services/audit.ts fills it (texts already clipped, before/after as JSON text). */
export interface AuditLogInsert {
  time: number;
  actorKind: string;
  actorId: string | null;
  actorName: string | null;
  via: string | null;
  action: string;
  targetKind: string | null;
  targetId: string | null;
  outcome: string;
  before: string | null;
  after: string | null;
  detail: string | null;
  address: string | null;
  userAgent: string | null;
}

/** What the audit page filters on; every field left out (or empty) matches all rows. */
export interface AuditFilter {
  actor?: string | undefined;
  actorKind?: string | undefined;
  action?: string | undefined;
  /** A prefix of actions ending in '.', e.g. "job." (ignored when `action` is given). */
  actionGroup?: string | undefined;
  target?: string | undefined;
  outcome?: string | undefined;
  from?: number | undefined;
  to?: number | undefined;
  /** Rows older than this id (the previous page's last). */
  before?: number | undefined;
}

/** The filter's clauses; a page statement's cache key has bit i set when it uses CLAUSES[i]. */
const CLAUSES = ["actor_name = ?", "actor_kind = ?", "action = ?", "action >= ? AND action < ?", "target_id = ?", "outcome = ?", "time >= ?", "time < ?", "id < ?"] as const;

const INSERT = `INSERT INTO audit_log (time, actor_kind, actor_id, actor_name, via, action, target_kind, target_id, outcome, before, after, detail, address, user_agent)
   VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
// Counted up to the limit only (the LIMIT inside): under a flood of attempts the window holds
// thousands of refused rows, and a count of them all on every attempt grew with the flood.
const REFUSED_SIGN_INS_FOR = "SELECT COUNT(*) AS n FROM (SELECT 1 FROM audit_log WHERE action = 'auth.sign-in' AND target_id = ? AND time > ? AND outcome = 'refused' LIMIT ?) AS refused";
const REFUSED_SIGN_INS_FROM = "SELECT COUNT(*) AS n FROM (SELECT 1 FROM audit_log WHERE action = 'auth.sign-in' AND address = ? AND time > ? AND outcome = 'refused' LIMIT ?) AS refused";

/** One statement text per combination of filters used (at most 2^CLAUSES.length, a few in practice); the engine prepares each once. */
const pages = new Map<number, string>();
function pageStatement(key: number): string {
  let text = pages.get(key);
  if (text === undefined) {
    const clauses = CLAUSES.filter((_, i) => (key & (1 << i)) !== 0);
    const where = clauses.length ? `WHERE ${clauses.join(" AND ")}` : "";
    pages.set(key, (text = `SELECT * FROM audit_log ${where} ORDER BY id DESC LIMIT ?`));
  }
  return text;
}

export const auditLogRepository = {
  insert(tx: Tx, row: AuditLogInsert): Promise<RunResult> {
    return tx.run(INSERT, [
      row.time,
      row.actorKind,
      row.actorId,
      row.actorName,
      row.via,
      row.action,
      row.targetKind,
      row.targetId,
      row.outcome,
      row.before,
      row.after,
      row.detail,
      row.address,
      row.userAgent,
    ]);
  },
  /** Refused sign-ins naming this account since `since`, counted up to `limit`. */
  countRefusedSignInsFor: async (tx: ReadTx, account: string, since: number, limit: number): Promise<number> => (await tx.get<{ n: number }>(REFUSED_SIGN_INS_FOR, [account, since, limit]))?.n ?? 0,
  /** Refused sign-ins from this address since `since`, counted up to `limit`. */
  countRefusedSignInsFrom: async (tx: ReadTx, address: string, since: number, limit: number): Promise<number> => (await tx.get<{ n: number }>(REFUSED_SIGN_INS_FROM, [address, since, limit]))?.n ?? 0,
  /** Up to `limit` matching rows, newest first. */
  page(tx: ReadTx, filter: AuditFilter, limit: number): Promise<AuditLogRow[]> {
    let key = 0;
    const params: Array<string | number> = [];
    // In CLAUSES order, so the parameters follow their placeholders.
    const use = (clause: number, ...values: Array<string | number>) => {
      key |= 1 << clause;
      params.push(...values);
    };
    if (filter.actor) use(0, filter.actor);
    if (filter.actorKind) use(1, filter.actorKind);
    if (filter.action) use(2, filter.action);
    else if (filter.actionGroup) use(3, filter.actionGroup, `${filter.actionGroup.slice(0, -1)}/`);
    if (filter.target) use(4, filter.target);
    if (filter.outcome) use(5, filter.outcome);
    if (filter.from !== undefined) use(6, filter.from);
    if (filter.to !== undefined) use(7, filter.to);
    if (filter.before !== undefined) use(8, filter.before);
    params.push(limit);
    return tx.all<AuditLogRow>(pageStatement(key), params);
  },
};

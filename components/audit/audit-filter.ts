/**
 * The audit page's filter and its URL (views are links: an admin can send "every refused call
 * of ana last night"), the `audit.list` input it asks for, and the export link with the same
 * filter. Times are UTC minutes (the portal shows UTC everywhere); `to` includes its minute.
 * Pure, so the page (server) and the filter form (browser) read a URL the same way.
 */
import { ACTOR_KINDS, AUDIT_ACTIONS, AUDIT_OUTCOMES, type ActorKind, type AuditAction, type AuditOutcome } from "@/lib/farm/audit-actions";
import type { ListAuditInput } from "@/server/queries/audit";
import type { SearchParamsRecord } from "../auth/next-path";

export interface AuditFilter {
  actor: string;
  actorKind: ActorKind | "";
  /** One action, or else a group of them ("job." is every job action). */
  action: AuditAction | "";
  actionGroup: string;
  target: string;
  outcome: AuditOutcome | "";
  /** `YYYY-MM-DDTHH:mm`, UTC. */
  from: string | null;
  to: string | null;
  /** The page: rows older than this id (null: the newest). */
  before: number | null;
}

export const EMPTY_FILTER: AuditFilter = { actor: "", actorKind: "", action: "", actionGroup: "", target: "", outcome: "", from: null, to: null, before: null };

/** "auth.", "access.", "user.", …: each action's prefix, in the vocabulary's order. */
export const ACTION_GROUPS: readonly string[] = [...new Set(AUDIT_ACTIONS.map((a) => `${a.slice(0, a.indexOf("."))}.`))];

export const PAGE_SIZE = 100;

const MINUTE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;

function minute(value: string | undefined): string | null {
  if (!value || !MINUTE.test(value) || Number.isNaN(Date.parse(`${value}:00Z`))) return null;
  return value;
}

function oneOf<T extends string>(values: readonly T[], value: string | undefined): T | "" {
  return values.find((v) => v === value) ?? "";
}

function getter(params: URLSearchParams | SearchParamsRecord): (key: string) => string | undefined {
  if (params instanceof URLSearchParams) return (key) => params.get(key) ?? undefined;
  return (key) => {
    const value = params[key];
    return Array.isArray(value) ? value[0] : value;
  };
}

/** A filter from a URL's query; anything malformed is left out rather than failing the page. */
export function parseAuditFilter(params: URLSearchParams | SearchParamsRecord): AuditFilter {
  const get = getter(params);
  const before = get("before");
  const action = oneOf(AUDIT_ACTIONS, get("action"));
  return {
    actor: (get("actor") ?? "").slice(0, 100),
    actorKind: oneOf(ACTOR_KINDS, get("kind")),
    action,
    actionGroup: action ? "" : oneOf(ACTION_GROUPS, get("group")),
    target: (get("target") ?? "").slice(0, 200),
    outcome: oneOf(AUDIT_OUTCOMES, get("outcome")),
    from: minute(get("from")),
    to: minute(get("to")),
    before: before !== undefined && /^[1-9]\d{0,15}$/.test(before) ? Number(before) : null,
  };
}

/** The URL query of a filter (`?…`, or "" for everything, newest first). */
export function auditFilterSearch(filter: AuditFilter): string {
  const params = new URLSearchParams();
  const set = (key: string, value: string | null) => {
    if (value) params.set(key, value);
  };
  set("actor", filter.actor.trim());
  set("kind", filter.actorKind);
  set("action", filter.action);
  if (!filter.action) set("group", filter.actionGroup);
  set("target", filter.target.trim());
  set("outcome", filter.outcome);
  set("from", filter.from);
  set("to", filter.to);
  if (filter.before !== null) params.set("before", String(filter.before));
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** A changed filter shows the newest matching rows. */
export function withAuditFilter(filter: AuditFilter, patch: Partial<Omit<AuditFilter, "before">>): AuditFilter {
  return { ...filter, ...patch, before: null };
}

/** The filter as the server takes it (audit.list, and the export without its paging). */
function serverFilter(filter: AuditFilter): Omit<ListAuditInput, "limit" | "before"> {
  const input: Omit<ListAuditInput, "limit" | "before"> = {};
  if (filter.actor.trim()) input.actor = filter.actor.trim();
  if (filter.actorKind) input.actorKind = filter.actorKind;
  if (filter.action) input.action = filter.action;
  else if (filter.actionGroup) input.actionGroup = filter.actionGroup;
  if (filter.target.trim()) input.target = filter.target.trim();
  if (filter.outcome) input.outcome = filter.outcome;
  if (filter.from) input.from = Date.parse(`${filter.from}:00Z`);
  if (filter.to) input.to = Date.parse(`${filter.to}:00Z`) + 60_000;
  return input;
}

export function auditListInput(filter: AuditFilter): ListAuditInput {
  return { ...serverFilter(filter), ...(filter.before !== null ? { before: filter.before } : {}), limit: PAGE_SIZE };
}

/** `/api/audit/export?format=…` with the same filter (every matching row, not one page). */
export function auditExportHref(filter: AuditFilter, format: "csv" | "jsonl"): string {
  const params = new URLSearchParams({ format });
  for (const [key, value] of Object.entries(serverFilter(filter))) params.set(key, String(value));
  return `/api/audit/export?${params.toString()}`;
}

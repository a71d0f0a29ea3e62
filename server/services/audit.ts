/**
 * The audit log's writer. Services call `audit` with the tx of the unit of work of the change
 * they make, so a change and its row commit or roll back together. Callers choose what goes in before/after:
 * plain facts (a role, a priority, a count), never a secret; the redaction sweep test checks it.
 */
import type { ActorKind, AuditAction, AuditOutcome } from "../../lib/farm/audit-actions";
import { auditLogRepository } from "../store/audit-log";
import type { Tx } from "../store/repository";
import type { Farm } from "../context/farm";

/** Who did it and from where. */
export interface Actor {
  kind: ActorKind;
  id: string | null;
  name: string;
  /** How they proved it: session, token:<id>, worker-credential, pool-token, shell, setup. */
  via: string | null;
  address: string | null;
  userAgent: string | null;
}

export const SYSTEM_ACTOR: Actor = { kind: "system", id: null, name: "system", via: null, address: null, userAgent: null };

/** A command run on the server's own shell (`loom user …`), by the OS user who ran it. */
export function shellActor(osUser: string): Actor {
  return { kind: "shell", id: null, name: `shell:${osUser}`, via: "shell", address: null, userAgent: null };
}

export interface AuditEntry {
  action: AuditAction;
  target?: { kind: string; id: string } | null;
  outcome?: AuditOutcome;
  before?: unknown;
  after?: unknown;
  detail?: string | null;
}

const MAX_TEXT = 2_000;

function clip(value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
}

function json(value: unknown): string | null {
  return value === undefined ? null : clip(JSON.stringify(value));
}

/** Writes one row in the change's unit of work. */
export function audit(tx: Tx, farm: Pick<Farm, "now">, actor: Actor, entry: AuditEntry): Promise<unknown> {
  return auditLogRepository.insert(tx, {
    time: farm.now(),
    actorKind: actor.kind,
    actorId: actor.id,
    actorName: clip(actor.name),
    via: actor.via,
    action: entry.action,
    targetKind: entry.target?.kind ?? null,
    targetId: clip(entry.target?.id ?? null),
    outcome: entry.outcome ?? "ok",
    before: json(entry.before),
    after: json(entry.after),
    detail: clip(entry.detail ?? null),
    address: clip(actor.address),
    userAgent: clip(actor.userAgent),
  });
}

"use client";

import { useEffect, useRef, useState, type FormEvent } from "react";
import { ACTOR_KINDS, AUDIT_ACTIONS, AUDIT_OUTCOMES, type ActorKind, type AuditAction, type AuditOutcome } from "@/lib/farm/audit-actions";
import { ACTION_GROUPS, auditFilterSearch, EMPTY_FILTER, withAuditFilter, type AuditFilter } from "./audit-filter";

/** The filter form: typed and chosen, then applied at once (one query per change, not per keystroke). */
export function AuditFilters({ filter, onChange }: { filter: AuditFilter; onChange: (filter: AuditFilter) => void }) {
  const [draft, setDraft] = useState(filter);
  // The URL wins when it changes from elsewhere (Back, a shared link), not when it echoes what this form sent.
  const sent = useRef(auditFilterSearch(filter));
  useEffect(() => {
    const key = auditFilterSearch(filter);
    if (key !== sent.current) setDraft(filter);
    sent.current = key;
  }, [filter]);
  const set = (patch: Partial<AuditFilter>) => setDraft({ ...draft, ...patch });
  const send = (next: AuditFilter) => {
    sent.current = auditFilterSearch(next);
    onChange(next);
  };
  const apply = (event: FormEvent) => {
    event.preventDefault();
    send(withAuditFilter(draft, {}));
  };
  const actions = draft.actionGroup ? AUDIT_ACTIONS.filter((a) => a.startsWith(draft.actionGroup)) : AUDIT_ACTIONS;

  return (
    <form className="job-filters" role="search" aria-label="Filter the audit log" onSubmit={apply}>
      <div className="filter-row">
        <label>
          Actor
          <input value={draft.actor} onChange={(e) => set({ actor: e.target.value })} placeholder="user name" maxLength={100} />
        </label>
        <label>
          Actor kind
          <select value={draft.actorKind} onChange={(e) => set({ actorKind: e.target.value as ActorKind | "" })}>
            <option value="">Any</option>
            {ACTOR_KINDS.map((k) => (
              <option key={k} value={k}>
                {k}
              </option>
            ))}
          </select>
        </label>
        <label>
          Action group
          <select value={draft.actionGroup} onChange={(e) => set({ actionGroup: e.target.value, action: "" })}>
            <option value="">Any</option>
            {ACTION_GROUPS.map((g) => (
              <option key={g} value={g}>
                {g.slice(0, -1)}
              </option>
            ))}
          </select>
        </label>
        <label>
          Action
          <select value={draft.action} onChange={(e) => set({ action: e.target.value as AuditAction | "" })}>
            <option value="">Any</option>
            {actions.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </select>
        </label>
        <label>
          Target
          <input value={draft.target} onChange={(e) => set({ target: e.target.value })} placeholder="user, job or token id" maxLength={200} />
        </label>
        <label>
          Outcome
          <select value={draft.outcome} onChange={(e) => set({ outcome: e.target.value as AuditOutcome | "" })}>
            <option value="">Any</option>
            {AUDIT_OUTCOMES.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        </label>
        <label>
          From (UTC)
          <input type="datetime-local" value={draft.from ?? ""} onChange={(e) => set({ from: e.target.value || null })} />
        </label>
        <label>
          To (UTC)
          <input type="datetime-local" value={draft.to ?? ""} onChange={(e) => set({ to: e.target.value || null })} />
        </label>
        <button type="submit" className="primary">
          Apply filters
        </button>
        <button
          type="button"
          onClick={() => {
            setDraft(EMPTY_FILTER);
            send(EMPTY_FILTER);
          }}
        >
          Clear filters
        </button>
      </div>
    </form>
  );
}

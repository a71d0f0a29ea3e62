"use client";

import { useEffect, useRef, useState, type FormEvent } from "react";
import { ACTOR_KINDS, AUDIT_ACTIONS, AUDIT_OUTCOMES } from "@/lib/farm/audit-actions";
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
        <Choice label="Actor kind" value={draft.actorKind} choices={ACTOR_KINDS} onChange={(actorKind) => set({ actorKind })} />
        <Choice label="Action group" value={draft.actionGroup} choices={ACTION_GROUPS} text={(g) => g.slice(0, -1)} onChange={(actionGroup) => set({ actionGroup, action: "" })} />
        <Choice label="Action" value={draft.action} choices={actions} onChange={(action) => set({ action })} />
        <label>
          Target
          <input value={draft.target} onChange={(e) => set({ target: e.target.value })} placeholder="user, job or token id" maxLength={200} />
        </label>
        <Choice label="Outcome" value={draft.outcome} choices={AUDIT_OUTCOMES} onChange={(outcome) => set({ outcome })} />
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

/** One of a vocabulary, or "Any" (the empty value). */
function Choice<T extends string>({
  label,
  value,
  choices,
  text = (choice) => choice,
  onChange,
}: {
  label: string;
  value: T | "";
  choices: readonly T[];
  text?: (choice: T) => string;
  onChange: (value: T | "") => void;
}) {
  return (
    <label>
      {label}
      <select value={value} onChange={(e) => onChange(e.target.value as T | "")}>
        <option value="">Any</option>
        {choices.map((choice) => (
          <option key={choice} value={choice}>
            {text(choice)}
          </option>
        ))}
      </select>
    </label>
  );
}

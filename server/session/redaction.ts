/**
 * Log redaction for openjd_redacted_env values (spec digest §12.5): every occurrence of every
 * registered value becomes exactly eight asterisks, whatever its length, and overlapping or
 * touching hits become one mask. Values are literal text. One Aho-Corasick pass per line keeps
 * the cost linear in the line length however many values are registered.
 */

import { REDACTION_MASK } from "../../lib/openjd";

const TOKEN = "openjd_redacted_env:";

export class Redactor {
  private readonly values = new Set<string>();
  private automaton: Automaton | null = null;

  /** Registers a secret. A multi-line value registers each non-empty line, since output is logged line by line. */
  add(value: string): void {
    for (const line of value.split(/\r\n|\r|\n/)) {
      if (line === "" || this.values.has(line)) continue;
      this.values.add(line);
      this.automaton = null;
    }
  }

  get active(): boolean {
    return this.values.size > 0;
  }

  redact(line: string): string {
    if (!this.active || line === "") return line;
    this.automaton ??= buildAutomaton(this.values);
    const spans = findSpans(this.automaton, line);
    if (spans.length === 0) return line;
    let out = "";
    let from = 0;
    for (const [start, end] of spans) {
      out += line.slice(from, start) + REDACTION_MASK;
      from = end;
    }
    return out + line.slice(from);
  }
}

/**
 * What the log shows for an openjd_redacted_env line: everything after the token is replaced, so
 * `openjd_redacted_env: SECRETVAR=value` → `openjd_redacted_env: SECRETVAR=********` (conformance
 * REDACTED_ENV_VARS/initial-line-redacted). Without a name only the mask follows the token. Also
 * safe for an echoed command line that contains the directive; text without the token is unchanged.
 */
export function redactedEnvLine(line: string, name?: string | null): string {
  const at = line.indexOf(TOKEN);
  if (at < 0) return line;
  return `${line.slice(0, at + TOKEN.length)} ${name ? `${name}=` : ""}${REDACTION_MASK}`;
}

interface State {
  next: Map<number, number>;
  fail: number;
  /** Length of the longest value ending at this state, following failure links; 0 if none. */
  longest: number;
}

type Automaton = State[];

function buildAutomaton(values: Iterable<string>): Automaton {
  const states: Automaton = [newState()];
  for (const value of values) {
    let at = 0;
    for (let i = 0; i < value.length; i++) {
      const unit = value.charCodeAt(i);
      let to = state(states, at).next.get(unit);
      if (to === undefined) {
        to = states.push(newState()) - 1;
        state(states, at).next.set(unit, to);
      }
      at = to;
    }
    state(states, at).longest = value.length;
  }
  // Breadth first, so a state's failure target (always shallower) is complete before it is used.
  const queue = [...state(states, 0).next.values()];
  for (let head = 0; head < queue.length; head++) {
    const from = state(states, queue[head] as number);
    for (const [unit, to] of from.next) {
      let fallback = from.fail;
      while (fallback !== 0 && !state(states, fallback).next.has(unit)) fallback = state(states, fallback).fail;
      const target = state(states, to);
      target.fail = state(states, fallback).next.get(unit) ?? 0;
      target.longest = Math.max(target.longest, state(states, target.fail).longest);
      queue.push(to);
    }
  }
  return states;
}

/** Merged [start, end) spans of every match. Only the longest match ending at a position matters: shorter ones lie inside it. */
function findSpans(states: Automaton, line: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let at = 0;
  for (let i = 0; i < line.length; i++) {
    const unit = line.charCodeAt(i);
    while (at !== 0 && !state(states, at).next.has(unit)) at = state(states, at).fail;
    at = state(states, at).next.get(unit) ?? 0;
    const length = state(states, at).longest;
    if (length === 0) continue;
    let start = i + 1 - length;
    // Ends only grow, but a long match may start before earlier spans: swallow every span it touches.
    for (let last = spans.at(-1); last && start <= last[1]; last = spans.at(-1)) {
      start = Math.min(start, last[0]);
      spans.pop();
    }
    spans.push([start, i + 1]);
  }
  return spans;
}

function newState(): State {
  return { next: new Map(), fail: 0, longest: 0 };
}

function state(states: Automaton, index: number): State {
  return states[index] as State;
}

/**
 * Search in a log and how a line is drawn: which lines match (case-insensitive substring,
 * extended as lines arrive), stepping through matches, and a line split into plain text,
 * search hits and redacted values (which the worker replaced with the mask before upload).
 */

import { REDACTION_MASK } from "@/lib/openjd";

interface Lines {
  length: number;
  at(index: number): { line: string } | undefined;
}

/** Indexes of the lines from `from` on that contain `query` (ignoring case); none for an empty query. */
export function findMatches(lines: Lines, query: string, from = 0): number[] {
  if (query === "") return [];
  const needle = query.toLowerCase();
  const found: number[] = [];
  for (let i = from; i < lines.length; i++) {
    if (lines.at(i)?.line.toLowerCase().includes(needle)) found.push(i);
  }
  return found;
}

/** The match to show after `current` (an index into the matches, -1 for none yet), wrapping around. */
export function stepMatch(count: number, current: number, direction: 1 | -1): number {
  if (count === 0) return -1;
  if (current < 0) return direction === 1 ? 0 : count - 1;
  return (current + direction + count) % count;
}

export type SegmentKind = "plain" | "match" | "masked";
export interface Segment {
  kind: SegmentKind;
  text: string;
}

/** A line cut into segments: masks first (a mask is never split by a hit), then search hits in the rest. */
export function lineSegments(line: string, query: string): Segment[] {
  const out: Segment[] = [];
  const parts = line.split(REDACTION_MASK);
  parts.forEach((part, i) => {
    if (i > 0) out.push({ kind: "masked", text: REDACTION_MASK });
    pushHits(out, part, query);
  });
  return out;
}

function pushHits(out: Segment[], text: string, query: string): void {
  if (text === "") return;
  if (query === "") {
    out.push({ kind: "plain", text });
    return;
  }
  const lower = text.toLowerCase();
  const needle = query.toLowerCase();
  let from = 0;
  for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + needle.length)) {
    if (at > from) out.push({ kind: "plain", text: text.slice(from, at) });
    out.push({ kind: "match", text: text.slice(at, at + needle.length) });
    from = at + needle.length;
  }
  if (from < text.length) out.push({ kind: "plain", text: text.slice(from) });
}

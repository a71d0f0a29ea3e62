/**
 * The messages between the server and a check thread (plain data only: they cross by structured
 * clone). One request at a time per thread; a creation is a `create` followed by `rows` requests
 * until the thread answers with no batch.
 */
import type { DocumentFormat } from "../../lib/openjd";
import type { InspectedTemplate } from "./inspect-template-text";
import type { CreationBatch, JobPlan } from "./plan-job";
import type { ReadBundle } from "./read-bundle";
import type { SubmissionText, SubmitError } from "./validate-submission";

export type CheckRequest =
  | { kind: "inspect"; text: string; format: DocumentFormat }
  /** A job bundle .zip as uploaded (base64): unzipped, its values parsed, its template inspected. */
  | { kind: "bundle"; base64: string; fileName: string; files?: Record<string, string> }
  /** Validate and plan, for a preview: nothing is kept in the thread. */
  | { kind: "validate"; submission: SubmissionText }
  /** Validate and plan, then keep the task rows ready for `rows` requests. */
  | { kind: "create"; submission: SubmissionText; batchRows: number }
  | { kind: "rows" };

export type CheckAnswer =
  | { kind: "inspected"; inspected: InspectedTemplate }
  | { kind: "bundle"; bundle: ReadBundle }
  | { kind: "refused"; errors: SubmitError[] }
  | { kind: "planned"; plan: JobPlan }
  /** The next batch of the creation in progress (tasks, then task-to-task edges); null once all have been sent. */
  | { kind: "rows"; batch: CreationBatch | null }
  /** lib/openjd threw (a bug, not a template problem): the thread lives on. */
  | { kind: "failed"; message: string }
  /** The server stopped the check (its budget ran out, or the server is stopping) or the thread died (out of memory). */
  | { kind: "stopped"; reason: "timeout" | "crashed" | "closed"; message: string };

export interface ToThread {
  id: number;
  request: CheckRequest;
}

export type FromThread = { ready: true } | { id: number; answer: CheckAnswer };

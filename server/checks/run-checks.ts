/**
 * Template checks, previews and job creation as the services ask for them: each on a thread of
 * the check pool, within the farm's budget (FarmSettings.checkTimeoutSeconds). A check that runs
 * out of budget, or kills its thread, ends as an ordinary located error (path "", line 1) with
 * nothing changed; the server's event loop never runs lib/openjd for a request.
 */
import type { DocumentFormat, TemplateError } from "../../lib/openjd";
import type { Farm } from "../context/farm";
import type { CheckAnswer } from "./check-protocol";
import { checkPool, type CheckLease } from "./check-pool";
import type { InspectedTemplate } from "./inspect-template-text";
import type { CreationBatch, JobPlan } from "./plan-job";
import type { ReadBundle } from "./read-bundle";
import { submissionText, type Refused, type SubmissionText, type SubmitError } from "./validate-submission";

/** Task rows a thread sends per message (plain strings; ~1–2 MB). */
const BATCH_ROWS = 20_000;

/** Thrown while task rows stream in and the thread stops answering: the creation is undone. */
export class CheckStopped extends Error {
  constructor(readonly error: SubmitError) {
    super(error.message);
  }
}

/** The located error a stopped or failed check ends with. */
export function checkProblem(farm: Farm, answer: CheckAnswer, doing = "checking this template"): SubmitError {
  const limit = farm.settings.checkTimeoutSeconds;
  let message: string;
  if (answer.kind === "stopped" && answer.reason === "timeout") {
    message = `${doing} took longer than ${limit} s, this farm's limit; simplify its expressions (large ranges or comprehensions in let bindings) or ask an admin to raise LOOM_CHECK_TIMEOUT_SECONDS`;
  } else if (answer.kind === "stopped" && answer.reason === "closed") {
    message = `${doing} was stopped: the server is stopping; try again once it is back`;
  } else if (answer.kind === "stopped") {
    message = `${doing} used more memory than the template checker has (${answer.message}); simplify its expressions`;
  } else if (answer.kind === "failed") {
    message = `${doing} failed inside the template checker: ${answer.message}`;
  } else {
    message = `${doing}: the template checker gave an unexpected answer (${answer.kind})`;
  }
  return { path: "", line: 1, column: 1, message, origin: "template" };
}

async function withThread<T>(owner: string, use: (lease: CheckLease) => Promise<T>): Promise<T> {
  const lease = await checkPool().lease(owner);
  try {
    return await use(lease);
  } finally {
    lease.release();
  }
}

const budgetOf = (farm: Farm) => farm.settings.checkTimeoutSeconds * 1000;

/** What lib/openjd makes of a text (templates.save, importBundle, templates.get). */
export function inspectOffLoop(farm: Farm, owner: string, text: string, format: DocumentFormat): Promise<InspectedTemplate> {
  return withThread(owner, async (lease) => {
    const answer = await lease.request({ kind: "inspect", text, format }, budgetOf(farm));
    if (answer.kind === "inspected") return answer.inspected;
    const { origin: _origin, ...error } = checkProblem(farm, answer);
    return { readable: false, errors: [error satisfies TemplateError] };
  });
}

/** An uploaded job bundle read (templates.importBundle, readBundle): a zip, or a folder's `files`; a stopped read is a located error in it. */
export function readBundleOffLoop(farm: Farm, owner: string, base64: string, fileName: string, files?: Record<string, string>): Promise<ReadBundle> {
  return withThread(owner, async (lease) => {
    const answer = await lease.request({ kind: "bundle", base64, fileName, ...(files ? { files } : {}) }, budgetOf(farm));
    if (answer.kind === "bundle") return answer.bundle;
    const { line, column, message } = checkProblem(farm, answer, "reading this bundle");
    return { ok: false as const, error: { file: fileName, path: "", line, column, message } };
  });
}

/** A submission validated and planned, writing nothing (jobs.preview). */
export function validateOffLoop(farm: Farm, owner: string, submission: SubmissionText): Promise<{ ok: true; plan: JobPlan } | Refused> {
  return withThread(owner, async (lease) => {
    const answer = await lease.request({ kind: "validate", submission: submissionText(submission) }, budgetOf(farm));
    if (answer.kind === "planned") return { ok: true as const, plan: answer.plan };
    if (answer.kind === "refused") return { ok: false as const, errors: answer.errors };
    return { ok: false as const, errors: [checkProblem(farm, answer)] };
  });
}

/**
 * A submission validated and planned in a thread, then `write` given the plan and the task rows
 * batch by batch (each batch within the budget too). Refused submissions never reach `write`.
 */
export function createOffLoop<T>(farm: Farm, owner: string, submission: SubmissionText, write: (plan: JobPlan, nextBatch: () => Promise<CreationBatch | null>) => Promise<T>): Promise<T | Refused> {
  const budget = budgetOf(farm);
  return withThread(owner, async (lease) => {
    const answer = await lease.request({ kind: "create", submission: submissionText(submission), batchRows: BATCH_ROWS }, budget);
    if (answer.kind === "refused") return { ok: false as const, errors: answer.errors };
    if (answer.kind !== "planned") return { ok: false as const, errors: [checkProblem(farm, answer)] };
    const nextBatch = async () => {
      const rows = await lease.request({ kind: "rows" }, budget);
      if (rows.kind === "rows") return rows.batch;
      throw new CheckStopped(checkProblem(farm, rows, "creating this job's tasks"));
    };
    try {
      return await write(answer.plan, nextBatch);
    } catch (error) {
      if (error instanceof CheckStopped) return { ok: false as const, errors: [error.error] };
      throw error;
    }
  });
}

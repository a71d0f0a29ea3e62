/**
 * The inside of a check thread (started by check-entry.mjs): template checks, previews and job
 * creation with lib/openjd, off the server's event loop. A slow template costs this thread, which
 * the pool terminates past the farm's budget; the server keeps answering meanwhile.
 */
import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";
import type { CheckAnswer, CheckRequest, FromThread, ToThread } from "./check-protocol";
import { inspectTemplateText } from "./inspect-template-text";
import { planJob, taskBatches, type CreationBatch } from "./plan-job";
import { readUploadedBundle } from "./read-bundle";
import { validateSubmission } from "./validate-submission";

const port = parentPort;
if (!port) throw new Error("check-thread.ts runs in a worker thread (see check-pool.ts)");

// Checks are background work: on Linux a nice value belongs to one thread (this one, and the
// processes it starts), so the server's event loop wins the CPU when both want it. Elsewhere it
// would renice the whole server: left alone there.
if (process.platform === "linux") {
  try {
    setPriority(0, 10);
  } catch {
    // not allowed: run at the server's priority
  }
}

/** The task rows (then the edges) of the creation in progress. */
let rows: Generator<CreationBatch> | null = null;

function answer(request: CheckRequest): CheckAnswer {
  switch (request.kind) {
    case "inspect":
      return { kind: "inspected", inspected: inspectTemplateText(request.text, request.format) };
    case "bundle":
      return { kind: "bundle", bundle: readUploadedBundle(request.base64, request.fileName, request.files) };
    case "validate":
    case "create": {
      rows = null;
      const valid = validateSubmission(request.submission);
      if (!valid.ok) return { kind: "refused", errors: valid.errors };
      if (request.kind === "create") rows = taskBatches(valid.job, request.batchRows);
      return { kind: "planned", plan: planJob(valid) };
    }
    case "rows": {
      const next = rows?.next();
      if (!next || next.done) {
        rows = null;
        return { kind: "rows", batch: null };
      }
      return { kind: "rows", batch: next.value };
    }
  }
}

port.on("message", ({ id, request }: ToThread) => {
  let reply: CheckAnswer;
  try {
    reply = answer(request);
  } catch (error) {
    rows = null;
    reply = { kind: "failed", message: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage({ id, answer: reply } satisfies FromThread);
});
port.postMessage({ ready: true } satisfies FromThread);

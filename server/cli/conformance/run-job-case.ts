/**
 * Running a conformance job test (`jobs/*.test.yaml`): all steps and tasks of the job in one
 * Session, in the order `loom run` runs them (TASK_DEPENDENCIES: a step that waits for its own
 * tasks runs them in an order that respects those dependencies), then the expectations checked
 * against the combined log — `output` substrings (an item may be `{anyOf: [...]}`), `forbidden`
 * substrings, their per-platform variants, `taskFailure` (optionally with the exit code of the
 * first failed action), and `.invalid` meaning "must fail".
 */
import { getEntry, type PathMappingRule, type SourceNode } from "../../../lib/openjd";
import type { SessionEvent } from "../../session/events";
import { runJob } from "../../session/run-job";
import { inDependencyOrder } from "../run";
import type { CaseOutcome, JobTest, Platform } from "./run-case";

/** A case that runs longer than this is stopped (its actions canceled) and failed. */
const CASE_TIME_LIMIT_MS = 120_000;

export function jobCaseRunner(platform: Platform): (test: JobTest) => Promise<CaseOutcome> {
  return async (test) => {
    const root = test.root;
    // Both reference CLIs open with the resolved job name; cases assert it (base 1.1.1).
    const lines: string[] = [`Running job '${test.job.name}'`];
    const ended: Array<Extract<SessionEvent, { type: "action_ended" }>> = [];
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), CASE_TIME_LIMIT_MS);
    let result;
    try {
      result = await runJob({
        job: inDependencyOrder(test.job),
        pathMappingRules: pathMappingRules(field(root, "pathMapping")),
        sessionId: "conformance",
        signal: controller.signal,
        onEvent: (event) => {
          if (event.type === "log") lines.push(event.line);
          if (event.type === "action_ended") ended.push(event);
        },
      });
    } finally {
      clearTimeout(timer);
    }
    const log = lines.join("\n");
    if (controller.signal.aborted) return { status: "failed", reason: `stopped after ${CASE_TIME_LIMIT_MS / 1000} s` };
    const expected = field(root, "expected");
    const problems = checkOutput(log, expected, platform);
    const firstFailure = ended.find((e) => e.status !== "SUCCEEDED");
    const taskFailure = expected ? field(expected, "taskFailure") : undefined;
    if (test.testCase.expectInvalid) {
      if (result.status === "SUCCEEDED") problems.push("expected the run to fail, but it succeeded");
    } else if (taskFailure !== undefined) {
      if (result.status === "SUCCEEDED") problems.push("expected a task failure, but the run succeeded");
      const code = field(taskFailure, "exitCode");
      if (code?.kind === "int" && firstFailure?.exitCode !== Number(code.value)) {
        problems.push(`expected the first failure to exit with ${code.value}, got ${firstFailure ? (firstFailure.exitCode ?? firstFailure.status) : "no failure"}`);
      }
    } else if (result.status !== "SUCCEEDED") {
      problems.push(`the run ended ${result.status}${result.refused ? `: ${result.refused}` : firstFailure?.failMessage ? `: ${firstFailure.failMessage}` : ""}`);
    }
    if (problems.length === 0) return { status: "passed", reason: `ran: ${result.status.toLowerCase()}, ${result.tasksRun} task(s)` };
    return { status: "failed", reason: `${problems.join("; ")}\n--- log ---\n${tail(log)}` };
  };
}

function field(node: SourceNode | undefined, key: string): SourceNode | undefined {
  return node?.kind === "object" ? getEntry(node, key)?.value : undefined;
}

function strings(node: SourceNode | undefined): Array<string | string[]> {
  if (node?.kind !== "array") return [];
  return node.items.flatMap((item): Array<string | string[]> => {
    if (item.kind === "string") return [item.value];
    const anyOf = field(item, "anyOf");
    if (anyOf?.kind === "array") return [anyOf.items.flatMap((o) => (o.kind === "string" ? [o.value] : []))];
    return [];
  });
}

/** The `output` and `forbidden` expectations (and their per-platform variants) over a log or an error text. */
export function checkOutput(log: string, expected: SourceNode | undefined, platform: Platform): string[] {
  const problems: string[] = [];
  const wanted = [...strings(field(expected, "output")), ...strings(field(expected, `output_${platform}`))];
  const forbidden = [...strings(field(expected, "forbidden")), ...strings(field(expected, `forbidden_${platform}`))];
  for (const item of wanted) {
    const options = Array.isArray(item) ? item : [item];
    if (!options.some((o) => log.includes(o))) problems.push(`missing output ${JSON.stringify(item)}`);
  }
  for (const item of forbidden) {
    for (const o of Array.isArray(item) ? item : [item]) if (log.includes(o)) problems.push(`forbidden output ${JSON.stringify(o)} appeared`);
  }
  return problems;
}

function pathMappingRules(node: SourceNode | undefined): PathMappingRule[] {
  if (node?.kind !== "array") return [];
  return node.items.flatMap((item) => {
    const text = (key: string) => {
      const value = field(item, key);
      return value?.kind === "string" ? value.value : "";
    };
    const format = text("source_path_format").toUpperCase();
    if (format !== "POSIX" && format !== "WINDOWS" && format !== "URI") return [];
    return [{ source_path_format: format, source_path: text("source_path"), destination_path: text("destination_path") }];
  });
}

function tail(log: string, lines = 40): string {
  const all = log.split("\n");
  return all.slice(-lines).join("\n");
}

/**
 * Deciding one conformance case. Templates are validated; job tests are validated, created, and
 * run by `runJob` (all steps and tasks in one Session), which checks their expected output. An
 * `.invalid` job test refused at validation or job creation has no log: its `expected.output` and
 * `forbidden` (if any) are checked against the error text instead, so a case can pin what the
 * refusal names (Loom's own TASK_DEPENDENCIES cases name the tasks of a cycle this way).
 */
import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import {
  createJob,
  decodeTemplate,
  describeError,
  detectFormat,
  type EnvironmentTemplate,
  getEntry,
  type Job,
  type JobTemplate,
  locateErrors,
  locateJobErrors,
  type ParsedSource,
  parseSource,
  sortErrors,
  type SourceNode,
  SUPPORTED_EXTENSIONS,
} from "../../../lib/openjd";
import { contradiction } from "./contradictions";
import type { ConformanceCase } from "./discover";
import { checkOutput } from "./run-job-case";

export type CaseStatus = "passed" | "failed" | "skipped";

export interface CaseOutcome {
  status: CaseStatus;
  reason: string;
}

export type Platform = "posix" | "windows";

export interface JobTest {
  testCase: ConformanceCase;
  job: Job;
  root: SourceNode;
}

export interface RunOptions {
  platform: Platform;
  cwd: string;
  /** Runs a created job and checks the test's expectations. */
  runJob: (test: JobTest) => Promise<CaseOutcome>;
}

const passed = (reason: string): CaseOutcome => ({ status: "passed", reason });
const failed = (reason: string): CaseOutcome => ({ status: "failed", reason });
const skipped = (reason: string): CaseOutcome => ({ status: "skipped", reason });

export async function runCase(testCase: ConformanceCase, options: RunOptions): Promise<CaseOutcome> {
  const conflict = contradiction(testCase.file);
  if (conflict !== null) return skipped(`contradiction: ${conflict}`);
  const format = detectFormat(testCase.file) ?? "yaml";
  const source = parseSource(readFileSync(testCase.file, "utf8"), format);
  if (!source.root) {
    return testCase.kind !== "job" && testCase.expectInvalid
      ? passed(`rejected: ${source.errors.map(describeError).join("; ")}`)
      : failed(`could not parse the case: ${source.errors.map(describeError).join("; ")}`);
  }
  if (testCase.kind === "job") return runJobCase(testCase, source, source.root, options);
  const unsupported = unsupportedExtensions([source.root]);
  if (unsupported.length > 0) return skipped(`needs extension ${unsupported.join(", ")} (not supported yet)`);
  const decoded = decodeTemplate(source.root, testCase.kind === "job-template" ? "job" : "environment");
  const errors = sortErrors(locateErrors(source, decoded.errors));
  if (testCase.expectInvalid) {
    return errors.length > 0 ? passed(`rejected: ${errors.map(describeError).join("; ")}`) : failed("expected the template to be rejected, but it passed validation");
  }
  return errors.length === 0 ? passed("valid") : failed(`expected a valid template, got: ${errors.map(describeError).join("; ")}`);
}

async function runJobCase(testCase: ConformanceCase, source: ParsedSource, root: SourceNode, options: RunOptions): Promise<CaseOutcome> {
  if (root.kind !== "object") return failed("a job test must be a mapping");
  const templateNode = getEntry(root, "template")?.value;
  if (!templateNode) return failed("the job test has no 'template'");
  const environmentNodes = listItems(getEntry(root, "environments")?.value);
  const unsupported = unsupportedExtensions([templateNode, ...environmentNodes]);
  if (unsupported.length > 0) return skipped(`needs extension ${unsupported.join(", ")} (not supported yet)`);
  const runOn = listItems(getEntry(root, "runOn")?.value).flatMap((n) => (n.kind === "string" ? [n.value] : []));
  if (runOn.length > 0 && !runOn.includes(options.platform)) return skipped(`runs on ${runOn.join(", ")} only`);

  const problems: string[] = [];
  const template = decodeInto<JobTemplate>(templateNode, "job", source, problems);
  const environments = environmentNodes.map((n) => decodeInto<EnvironmentTemplate>(n, "environment", source, problems));
  if (!template || environments.some((e) => e === null) || problems.length > 0) {
    return testCase.expectInvalid ? refused(root, "at validation", problems.join("; "), options) : failed(`validation failed: ${problems.join("; ")}`);
  }
  const parameters = getEntry(root, "parameters")?.value;
  const parameterValues = parameters?.kind === "object" ? Object.fromEntries(parameters.entries.map((e) => [e.key, e.value])) : {};
  const created = createJob({
    template,
    environmentTemplates: environments as EnvironmentTemplate[],
    parameterValues,
    templateDir: dirname(testCase.file),
    workingDir: options.cwd,
    pathFlavor: options.platform,
  });
  if (!created.ok) {
    // Templates are sub-documents of the test file: locate their errors from their own nodes.
    const errors = locateJobErrors(created.errors, {
      template: { ...source, root: templateNode },
      environments: environmentNodes.map((root) => ({ ...source, root })),
      parametersLabel: "parameters",
    });
    const text = errors.map(describeError).join("; ");
    return testCase.expectInvalid ? refused(root, "at job creation", text, options) : failed(`job creation failed: ${text}`);
  }
  return options.runJob({ testCase, job: created.job, root });
}

/** An `.invalid` job test that was refused: passed unless its expected output is missing from the error text. */
function refused(root: SourceNode, stage: string, text: string, options: RunOptions): CaseOutcome {
  const expected = root.kind === "object" ? getEntry(root, "expected")?.value : undefined;
  const problems = checkOutput(text, expected, options.platform);
  return problems.length === 0 ? passed(`rejected ${stage}: ${text}`) : failed(`rejected ${stage}, but the error text does not match: ${problems.join("; ")}; errors: ${text}`);
}

function decodeInto<T>(node: SourceNode, kind: "job" | "environment", source: ParsedSource, problems: string[]): T | null {
  const decoded = decodeTemplate(node, kind);
  // Locate against the test file's root: the template node is part of the same document.
  const located = locateErrors({ root: node, lines: source.lines }, decoded.errors);
  problems.push(...located.map(describeError));
  const template = decoded.template;
  return template && template.kind === kind ? (template.template as T) : null;
}

function listItems(node: SourceNode | undefined): SourceNode[] {
  return node?.kind === "array" ? node.items : [];
}

/** Extensions a case declares that Loom does not implement yet. */
function unsupportedExtensions(documents: readonly SourceNode[]): string[] {
  const names = new Set<string>();
  for (const doc of documents) {
    if (doc.kind !== "object") continue;
    for (const item of listItems(getEntry(doc, "extensions")?.value)) {
      if (item.kind === "string" && !SUPPORTED_EXTENSIONS.has(item.value as never) && ["EXPR", "WRAP_ACTIONS"].includes(item.value)) names.add(item.value);
    }
  }
  return [...names].sort();
}

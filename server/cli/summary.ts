/**
 * `loom summary FILE [-p K=V]… [--step S] [--json]`: create the job from the template and show
 * its steps in dependency order, their dependencies, parameter spaces, task and chunk counts,
 * host requirements and environments.
 */
import { createJob, describeError, type Job, type JobStep, locateJobErrors } from "../../lib/openjd";
import { parseArgs, UsageError } from "./args";
import { json, type CliIo } from "./io";
import { parseJobParameters } from "./job-params";
import { FileProblem, readTemplateFile } from "./read-template";
import { describeHostRequirements, displayParameterValue, plural, summarizeJob, type JobSummary, type StepSummary } from "./summary-model";

export const SUMMARY_USAGE = "usage: loom summary FILE [-p KEY=VALUE]... [--step STEP] [--json]";

export function runSummary(argv: readonly string[], io: CliIo): number {
  const args = parseArgs(argv, {
    values: ["--step"],
    repeated: ["--job-param"],
    booleans: ["--json"],
    aliases: { "-p": "--job-param" },
  });
  if (args.positionals.length !== 1) throw new UsageError("summary takes exactly one FILE");
  const file = args.positionals[0] as string;
  const asJson = args.booleans.has("--json");
  const fail = (message: string, errors: Array<{ path: string; line: number | null; column: number | null; message: string }> = []) => {
    if (asJson) io.out(json({ status: "error", message, errors }));
    else {
      io.out(`ERROR: ${message}`);
      for (const e of errors) io.out(`  ${describeError(e)}`);
    }
    return 1;
  };
  const parameterValues = parseJobParameters(args.repeated.get("--job-param") ?? [], io.cwd);
  let loaded;
  try {
    loaded = readTemplateFile(file, { cwd: io.cwd });
  } catch (error) {
    if (error instanceof FileProblem) return fail(error.message);
    throw error;
  }
  if (!loaded.template) return fail(`'${file}' failed checks: ${loaded.errors.length} error(s)`, loaded.errors);
  if (loaded.template.kind !== "job") return fail(`'${file}' is an environment template; summary needs a job template`);
  const created = createJob({ template: loaded.template.template, parameterValues, templateDir: loaded.directory, workingDir: io.cwd });
  if (!created.ok) {
    const errors = locateJobErrors(created.errors, { template: loaded.source, environments: [], parametersLabel: "parameters" });
    return fail(`could not create a job from '${file}'`, errors);
  }
  const summary = summarizeJob(created.job);
  const stepName = args.values.get("--step");
  if (stepName !== undefined) {
    const step = summary.steps.find((s) => s.name === stepName);
    if (!step) return fail(`step '${stepName}' does not exist in job '${summary.name}'`);
    if (asJson) io.out(json({ status: "success", job: summary.name, ...step }));
    else printStep(io, created.job, step);
    return 0;
  }
  if (asJson) io.out(json({ status: "success", ...summary }));
  else printJob(io, summary);
  return 0;
}

function printJob(io: CliIo, s: JobSummary): void {
  io.out(`--- Summary for '${s.name}' ---`);
  io.out("");
  if (s.parameters.length > 0) {
    io.out("Parameters:");
    for (const p of s.parameters) io.out(`  - ${p.name} (${p.type})${p.value === "" ? "" : `: ${displayParameterValue(p)}`}`);
    io.out("");
  }
  io.out(`Total steps: ${s.totalSteps}`);
  io.out(`Total tasks: ${s.totalTasks}`);
  if (s.totalChunks !== s.totalTasks) io.out(`Total chunks (dispatched units): ${s.totalChunks}`);
  if (s.taskEdges !== undefined) io.out(`Task-to-task edges: ${s.taskEdges}`);
  io.out(`Total environments: ${s.environments.length}`);
  io.out("");
  io.out(`--- Steps in '${s.name}' (dependency order) ---`);
  s.steps.forEach((step, i) => {
    io.out("");
    io.out(`${i + 1}. '${step.name}'`);
    for (const line of stepLines(step)) io.out(`   ${line}`);
  });
  if (s.environments.length > 0) {
    io.out("");
    io.out(`--- Environments in '${s.name}' (entered in this order) ---`);
    for (const env of s.environments) {
      io.out(`- ${env.name} (${env.scope === "job" ? "job" : `step '${env.scope}'`})`);
      if (env.description) io.out(`    ${env.description.replace(/\n/g, "\n    ")}`);
    }
  }
}

function stepLines(step: StepSummary): string[] {
  const lines: string[] = [];
  if (step.taskDependencies && step.taskDependencies.length > 0) {
    lines.push("Depends on:");
    for (const d of step.taskDependencies) lines.push(`  - '${d.dependsOn}': ${d.kind}, ${d.label} (${plural(d.edges, "edge")})`);
  } else if (step.dependencies.length > 0) lines.push(`Depends on: ${step.dependencies.map((d) => `'${d}'`).join(", ")}`);
  if (step.taskParameters.length > 0) {
    lines.push(`Task parameters: ${step.taskParameters.map((p) => `${p.name} (${p.type}, ${p.valueCount} value${p.valueCount === 1 ? "" : "s"})`).join(", ")}`);
    lines.push(`Combination: ${step.combination}`);
  }
  const chunks = step.chunking
    ? ` in ${step.chunkCount} chunk${step.chunkCount === 1 ? "" : "s"} of up to ${step.chunking.defaultTaskCount} ${step.chunking.rangeConstraint.toLowerCase()} values of ${step.chunking.parameter}`
    : "";
  lines.push(`${step.taskCount} task${step.taskCount === 1 ? "" : "s"}${chunks}`);
  if (step.hostRequirements) lines.push(`Host requirements: ${step.hostRequirements}`);
  if (step.environments.length > 0) lines.push(`Step environments: ${step.environments.join(", ")}`);
  return lines;
}

function printStep(io: CliIo, job: Job, step: StepSummary): void {
  io.out(`--- Summary for step '${step.name}' in job '${job.name}' ---`);
  io.out("");
  for (const line of stepLines(step)) io.out(line);
  const jobStep = job.steps.find((s) => s.name === step.name) as JobStep;
  const shown = Math.min(jobStep.parameterSpace.count, 5);
  if (jobStep.taskParameters.length > 0) {
    io.out("");
    io.out(`First ${shown} of ${jobStep.parameterSpace.count} ${jobStep.chunking ? "chunks" : "tasks"}:`);
    for (let i = 0; i < shown; i++) {
      const set = jobStep.parameterSpace.at(i);
      io.out(`  ${jobStep.parameterSpace.names.map((name) => `${name}=${set[name]?.value}`).join(", ")}`);
    }
  }
  const hr = describeHostRequirements(jobStep.hostRequirements);
  if (hr === null) io.out("Runs on any worker (no host requirements)");
}

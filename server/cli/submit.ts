/**
 * `loom submit FILE|BUNDLE [-p K=V]… [--environment FILE]… [--priority N] [--suspended]
 * [--max-retries N] [--max-failed-tasks N] [--retry-delay SECONDS] [--max-worker-failures N] [--server URL] [--json]`: submits a
 * job template (or a job bundle: a folder or .zip with template.yaml|json and
 * parameter_values.yaml|json) to a Loom server and prints the new job's id. Errors are printed
 * with their file, path and line:column; nothing is submitted then. The job is owned by, and
 * its submitter is, the account of the token sent (farm-client.ts connect()).
 */
import { readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { describeError, detectFormat } from "../../lib/openjd";
import { readJobBundle } from "../services/job-bundle";
import { parseArgs, UsageError } from "./args";
import { connect, describeClientError, toWire, type FarmAccess } from "./farm-client";
import type { CliIo } from "./io";
import { parseJobParameters } from "./job-params";

export const SUBMIT_USAGE =
  "usage: loom submit FILE|BUNDLE [-p KEY=VALUE]... [--environment FILE]... [--priority N] [--suspended] [--max-retries N] [--max-failed-tasks N] [--retry-delay SECONDS] [--max-worker-failures N] [--server URL] [--json]";

export async function runSubmit(argv: readonly string[], io: CliIo, access: FarmAccess = {}): Promise<number> {
  const args = parseArgs(argv, {
    // --submitter is parsed only to say why it is gone.
    values: ["--priority", "--max-retries", "--max-failed-tasks", "--retry-delay", "--max-worker-failures", "--server", "--submitter"],
    repeated: ["--job-param", "--environment"],
    booleans: ["--suspended", "--json"],
    aliases: { "-p": "--job-param" },
  });
  if (args.values.has("--submitter")) throw new UsageError("--submitter is gone: a job's submitter is the account whose token submits it (see 'loom login')");
  if (args.positionals.length !== 1) throw new UsageError("submit takes exactly one FILE or BUNDLE");
  const target = resolve(io.cwd, args.positionals[0] as string);
  const number = (flag: string) => {
    const raw = args.values.get(flag);
    if (raw === undefined) return undefined;
    if (!/^\d+$/.test(raw)) throw new UsageError(`${flag} takes a whole number`);
    return Number(raw);
  };
  const settings = {
    ...(number("--priority") !== undefined ? { priority: number("--priority") } : {}),
    ...(number("--max-retries") !== undefined ? { maxRetriesPerTask: number("--max-retries") } : {}),
    ...(number("--max-failed-tasks") !== undefined ? { maxFailedTasks: number("--max-failed-tasks") } : {}),
    ...(number("--retry-delay") !== undefined ? { retryDelaySeconds: number("--retry-delay") } : {}),
    ...(number("--max-worker-failures") !== undefined ? { maxWorkerFailures: number("--max-worker-failures") } : {}),
    ...(args.booleans.has("--suspended") ? { initialState: "SUSPENDED" as const } : {}),
  };
  const fail = (message: string) => {
    io.out(args.booleans.has("--json") ? JSON.stringify({ ok: false, errors: [{ message }] }) : `ERROR: ${message}`);
    return 1;
  };

  let isDir: boolean;
  try {
    isDir = statSync(target).isDirectory();
  } catch {
    return fail(`'${args.positionals[0]}' does not exist`);
  }
  let template: { text: string; format: "yaml" | "json" };
  let templateDir: string | null;
  let parameterValues: Record<string, unknown> = {};
  let bundleSettings = {};
  if (isDir || target.endsWith(".zip")) {
    const bundle = await readJobBundle(target);
    if (!bundle.ok) return fail(`${bundle.error.file}: ${describeError(bundle.error)}`);
    ({ template, templateDir } = bundle.bundle);
    parameterValues = Object.fromEntries(Object.entries(bundle.bundle.parameterValues).map(([k, v]) => [k, toWire(v)]));
    bundleSettings = bundle.bundle.settings;
  } else {
    const format = detectFormat(target);
    if (!format) return fail(`'${args.positionals[0]}' is not a .yaml, .yml or .json file`);
    template = { text: readFileSync(target, "utf8"), format };
    templateDir = dirname(target);
  }
  for (const [key, value] of Object.entries(parseJobParameters(args.repeated.get("--job-param") ?? [], io.cwd))) parameterValues[key] = toWire(value);
  const environmentTemplates = (args.repeated.get("--environment") ?? []).map((file) => {
    const path = resolve(io.cwd, file);
    const format = detectFormat(path);
    if (!format) throw new UsageError(`--environment '${file}' is not a .yaml, .yml or .json file`);
    try {
      return { text: readFileSync(path, "utf8"), format };
    } catch {
      throw new UsageError(`--environment '${file}' does not exist`);
    }
  });

  const { server, client, token } = connect(args.values.get("--server"), access, io.cwd);
  let result;
  try {
    result = await client.jobs.submit.mutate({
      template,
      environmentTemplates,
      parameterValues,
      templateDir,
      workingDir: io.cwd,
      settings: { ...bundleSettings, ...settings },
    });
  } catch (error) {
    return fail(describeClientError(error, server, token));
  }
  if (args.booleans.has("--json")) {
    io.out(JSON.stringify(result));
    return result.ok ? 0 : 1;
  }
  if (!result.ok) {
    io.out(`ERROR: the job was not submitted: ${result.errors.length} error(s)`);
    for (const error of result.errors) io.out(`  ${error.origin}: ${describeError(error)}`);
    return 1;
  }
  io.out(result.jobId);
  return 0;
}

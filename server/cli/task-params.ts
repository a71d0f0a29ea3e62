/**
 * Task selections for `loom run --step S`: `-tp NAME=VALUE` (one task) or `--tasks JSON`
 * (a JSON list of `{NAME: VALUE}` objects, or `file://PATH` holding one). Every task must be
 * one the step's parameter space actually has, so a typo cannot run something never submitted.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { JobStep, TaskParameterSet } from "../../lib/openjd";

export type ParsedTasks = { ok: true; tasks: TaskParameterSet[] } | { ok: false; message: string };

export function parseTaskArguments(step: JobStep, taskParams: readonly string[], tasksArg: string | undefined, cwd: string): ParsedTasks {
  const raw: Array<{ label: string; entries: Array<[string, unknown]> }> = [];
  if (taskParams.length > 0) {
    const entries: Array<[string, unknown]> = [];
    for (const arg of taskParams) {
      const eq = arg.indexOf("=");
      if (eq <= 0) return { ok: false, message: `task parameter '${arg}' is not NAME=VALUE` };
      entries.push([arg.slice(0, eq), arg.slice(eq + 1)]);
    }
    raw.push({ label: "the -tp values", entries });
  }
  if (tasksArg !== undefined) {
    let text = tasksArg;
    if (tasksArg.startsWith("file://")) {
      const path = tasksArg.slice("file://".length);
      try {
        text = readFileSync(resolve(cwd, path), "utf8");
      } catch {
        return { ok: false, message: `tasks file '${path}' could not be read` };
      }
    }
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch (error) {
      return { ok: false, message: `--tasks is not valid JSON: ${(error as Error).message}` };
    }
    if (!Array.isArray(document)) return { ok: false, message: "--tasks must be a JSON list of objects mapping task parameter names to values" };
    for (const [index, item] of document.entries()) {
      if (item === null || typeof item !== "object" || Array.isArray(item)) return { ok: false, message: `--tasks[${index}] is not an object` };
      raw.push({ label: `--tasks[${index}]`, entries: Object.entries(item as Record<string, unknown>) });
    }
  }
  const tasks: TaskParameterSet[] = [];
  for (const { label, entries } of raw) {
    const parsed = toTask(step, label, entries);
    if (typeof parsed === "string") return { ok: false, message: parsed };
    tasks.push(parsed);
  }
  return { ok: true, tasks };
}

function toTask(step: JobStep, label: string, entries: ReadonlyArray<[string, unknown]>): TaskParameterSet | string {
  const set = Object.create(null) as TaskParameterSet;
  for (const [name, value] of entries) {
    const parameter = step.taskParameters.find((p) => p.name === name);
    if (!parameter) {
      const known = step.taskParameters.map((p) => p.name);
      return `${label}: step '${step.name}' has no task parameter '${name}'${known.length ? ` (it has ${known.join(", ")})` : ""}`;
    }
    if (Object.hasOwn(set, name)) return `${label}: task parameter '${name}' is given twice`;
    if (typeof value !== "string" && typeof value !== "number") return `${label}: the value of '${name}' must be a string or a number`;
    set[name] = { type: parameter.type, value: String(value) };
  }
  const missing = step.taskParameters.filter((p) => !Object.hasOwn(set, p.name)).map((p) => p.name);
  if (missing.length > 0) return `${label}: missing task parameter(s) ${missing.join(", ")}`;
  if (!step.parameterSpace.contains(set)) {
    const shown = Object.entries(set)
      .map(([k, v]) => `${k}=${v.value}`)
      .join(", ");
    return `${label}: step '${step.name}' has no task ${shown}`;
  }
  return set;
}

/**
 * Turning an action of the job into a concrete command (spec digest §12.7 steps 1–3): the host
 * symbol table, embedded files written with their paths bound, the script's let bindings, the
 * resolved command/args/timeout/cancelation — and, under WRAP_ACTIONS, the wrap hook that runs
 * in its place with `WrappedAction.*` describing the action it replaces.
 */
import {
  type Action,
  type ActionRole,
  type EmbeddedFile,
  ExprError,
  type FormatEnvironment,
  HOOK_POSITION,
  HOOK_REPLACING,
  hookEnvironment,
  hostEnvironment,
  type JobStep,
  type LetBinding,
  resolveAction,
  type ResolvedAction,
  resolveFileData,
  resolveVariables,
  type TaskParameterSet,
  withLets,
  type WrapHook,
  wrappedActionOf,
  wrappedSymbols,
} from "../../lib/openjd";
import type { Session, StackEntry } from "./session";
import { embeddedFilePath, writeEmbeddedFile } from "./working-directory";

export type PreparedAction = { kind: "nothing" } | { kind: "failed"; message: string } | { kind: "run"; action: ResolvedAction; notes: string[]; wrappedBy?: string };

interface ScriptContext {
  env: FormatEnvironment;
  notes: string[];
}

/** The symbols of an environment's script, its embedded files written and its lets evaluated. */
async function environmentContext(session: Session, entry: StackEntry): Promise<ScriptContext> {
  const script = entry.environment.script;
  return scriptContext(session, entry.step, null, script?.embeddedFiles ?? [], "Env.File", script?.let);
}

async function scriptContext(
  session: Session,
  step: JobStep | null,
  task: TaskParameterSet | null,
  files: readonly EmbeddedFile[],
  prefix: "Env.File" | "Task.File",
  lets: readonly LetBinding[] | undefined,
): Promise<ScriptContext> {
  const paths = new Map(files.map((f) => [f.name, embeddedFilePath(session.directory, f.filename)]));
  const env = withLets(
    hostEnvironment({
      job: session.job,
      step,
      task,
      session: {
        workingDirectory: session.directory.path,
        pathMappingRulesFile: session.directory.pathMappingRulesFile,
        hasPathMappingRules: session.directory.hasPathMappingRules,
      },
      files: new Map([...paths].map(([name, path]) => [`${prefix}.${name}`, path])),
      pathFormat: "POSIX",
      mapPath: session.mapPath,
    }),
    lets,
  );
  const notes: string[] = [];
  for (const file of files) {
    const path = paths.get(file.name) as string;
    await writeEmbeddedFile(path, resolveFileData(file, env, "\n"), file.runnable);
    notes.push(`Wrote embedded file ${file.name} -> ${path}`);
  }
  return { env, notes };
}

type ResolvedEnvironment = { ok: true; variables: Array<{ name: string; value: string }>; context: ScriptContext } | { ok: false; message: string };

/** Entering an environment: its script context (embedded files written once) and its variables resolved in it. */
export async function resolveEnvironment(session: Session, entry: StackEntry): Promise<ResolvedEnvironment> {
  try {
    const context = await environmentContext(session, entry);
    return { ok: true, variables: resolveVariables(entry.environment, context.env), context };
  } catch (error) {
    return { ok: false, message: describeFailure(error) };
  }
}

/** `context`: the one `resolveEnvironment` built when entering; an exit builds its own. */
export async function prepareEnvironmentAction(session: Session, entry: StackEntry, which: "onEnter" | "onExit", wrapper: StackEntry | null, context?: ScriptContext): Promise<PreparedAction> {
  const action = entry.environment.script?.actions[which];
  if (!action) return { kind: "nothing" };
  try {
    context ??= await environmentContext(session, entry);
    const resolved = resolveAction(action, context.env, which);
    if (wrapper) {
      return await prepareHook(session, wrapper, HOOK_REPLACING[which], { action, env: context.env, resolved, role: which }, { envName: entry.environment.name }, context.notes);
    }
    return { kind: "run", action: resolved, notes: context.notes };
  } catch (error) {
    return { kind: "failed", message: describeFailure(error) };
  }
}

export async function prepareTaskAction(session: Session, step: JobStep, task: TaskParameterSet, wrapper: StackEntry | null): Promise<PreparedAction> {
  try {
    const context = await scriptContext(session, step, task, step.script.embeddedFiles, "Task.File", step.script.let);
    const action = step.script.actions.onRun;
    const resolved = resolveAction(action, context.env, "onRun");
    const notes = [
      `Parameter values: ${
        Object.entries(task)
          .map(([k, v]) => `${k}(${v.type}) = ${v.value}`)
          .join(", ") || "(none)"
      }`,
      ...context.notes,
    ];
    if (wrapper) return await prepareHook(session, wrapper, HOOK_REPLACING.onRun, { action, env: context.env, resolved, role: "onRun" }, { stepName: step.name }, notes);
    return { kind: "run", action: resolved, notes };
  } catch (error) {
    return { kind: "failed", message: describeFailure(error) };
  }
}

/** The wrapping environment's hook, resolved with `WrappedAction.*` of the action it replaces. */
async function prepareHook(
  session: Session,
  wrapper: StackEntry,
  hook: WrapHook,
  inner: { action: Action; env: FormatEnvironment; resolved: ResolvedAction; role: ActionRole },
  names: { envName?: string; stepName?: string },
  notes: string[],
): Promise<PreparedAction> {
  const hookAction = (wrapper.environment.script?.actions as Record<WrapHook, Action | undefined> | undefined)?.[hook];
  if (!hookAction) return { kind: "run", action: inner.resolved, notes };
  const context = await environmentContext(session, wrapper);
  // WrappedAction.* is the inner action as declared (an undeclared timeout is null, not a default).
  const wrapped = wrappedSymbols(wrappedActionOf(inner.action, inner.env, inner.role, session.sessionDefinedVariables()), names);
  const env = hookEnvironment(context.env, wrapped);
  return { kind: "run", action: resolveAction(hookAction, env, HOOK_POSITION[hook]), notes: [...notes, ...context.notes], wrappedBy: hook };
}

function describeFailure(error: unknown): string {
  if (error instanceof ExprError) return `Error resolving format string: ${error.message}`;
  if (error instanceof Error) return `Could not prepare the action: ${error.message}`;
  return String(error);
}

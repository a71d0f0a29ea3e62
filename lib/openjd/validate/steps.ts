/** Step templates (spec §3): script or simple action, environments, host requirements, parameter space. */
import { literalFormatString, referenceFormatString } from "../format-string";
import { SIMPLE_ACTION_KINDS, type Action, type Path, type SimpleActionKind, type StepScript, type StepTemplate } from "../model";
import { kindName, type ObjectNode, type SourceNode } from "../source-node";
import { checkAction, checkEmbeddedFiles, embeddedFileNames } from "./actions";
import { child, expectObject, field, type ValidationContext } from "./context";
import { checkEnvironmentList } from "./environments";
import { readFormat } from "./format-fields";
import { checkHostRequirements } from "./host-requirements";
import { readDescription } from "./parameter-definitions";
import { readString } from "./scalars";
import { checkLets } from "./lets";
import { scopeWithSymbols, type SymbolContext, type TaskParameterSymbol } from "./scopes";
import { dependencyScope, readDependencies, type StepCatalogue } from "./task-dependencies";
import { checkParameterSpace } from "./task-parameters";

/** How a FEATURE_BUNDLE_1 simple action runs its script (RFC 0004). */
export const SIMPLE_ACTION_RUNNERS: Record<SimpleActionKind, { command: string; argsBefore: string[]; extension: string }> = {
  bash: { command: "bash", argsBefore: [], extension: ".sh" },
  cmd: { command: "cmd", argsBefore: ["/C"], extension: ".bat" },
  node: { command: "node", argsBefore: [], extension: ".js" },
  powershell: { command: "powershell", argsBefore: ["-File"], extension: ".ps1" },
  python: { command: "python", argsBefore: [], extension: ".py" },
};
export const SIMPLE_ACTION_FILE = "SimpleActionScript";

/** `steps`: every step's task parameters as written, for TASK_DEPENDENCIES subspaces. */
export function checkStep(ctx: ValidationContext, node: SourceNode, path: Path, symbols: SymbolContext, steps: StepCatalogue): StepTemplate | null {
  const gated: Record<string, "FEATURE_BUNDLE_1" | "EXPR"> = { let: "EXPR" };
  for (const kind of SIMPLE_ACTION_KINDS) gated[kind] = "FEATURE_BUNDLE_1";
  const object = expectObject(ctx, node, path, {
    required: ["name"],
    optional: ["description", "dependencies", "stepEnvironments", "hostRequirements", "parameterSpace", "script"],
    gated,
  });
  if (!object) return null;
  const before = ctx.sink.count;
  const nameNode = field(object, "name");
  const name = nameNode && readString(ctx, nameNode, child(path, "name"), { min: 1, max: ctx.limits.nameLength, control: "all" });
  const description = readDescription(ctx, object, path);
  const lets = checkLets(ctx, field(object, "let"), child(path, "let"), symbols.inStep().template());
  const inStep = symbols.inStep().withLets(lets.types);
  const stepEnvironmentsNode = field(object, "stepEnvironments");
  const stepEnvironments = checkEnvironmentList(ctx, stepEnvironmentsNode, child(path, "stepEnvironments"), inStep);
  const tScope = inStep.template();
  const hostNode = field(object, "hostRequirements");
  const hostRequirements = hostNode && checkHostRequirements(ctx, hostNode, child(path, "hostRequirements"), tScope);
  const spaceNode = field(object, "parameterSpace");
  const parameterSpace = spaceNode && checkParameterSpace(ctx, spaceNode, child(path, "parameterSpace"), tScope);
  const taskParameters = taskParameterSymbols(spaceNode);
  // The dependency scope holds every step's ranges: built only for a step that has a subspace to check.
  const dependencies = readDependencies(ctx, field(object, "dependencies"), child(path, "dependencies"), steps, () => dependencyScope(tScope, taskParameters, steps, ctx.has("EXPR")));
  const script = checkStepBody(ctx, object, path, inStep.withEnvironmentFiles(environmentFileNames(stepEnvironmentsNode)), taskParameters);
  if (ctx.sink.count !== before || !name || !script) return null;
  const step: StepTemplate = { name, dependencies: dependencies.names, stepEnvironments, script: script.script, path };
  if (dependencies.taskDependencies.length > 0) step.taskDependencies = dependencies.taskDependencies;
  if (script.simpleAction) step.simpleAction = script.simpleAction;
  if (description !== undefined) step.description = description;
  if (hostRequirements) step.hostRequirements = hostRequirements;
  if (parameterSpace) step.parameterSpace = parameterSpace;
  if (lets.bindings.length > 0) step.let = lets.bindings;
  return step;
}

/** Task parameters as written, so script references are scoped even when a definition is invalid. */
export function taskParameterSymbols(spaceNode: SourceNode | undefined): TaskParameterSymbol[] {
  const list = spaceNode?.kind === "object" ? field(spaceNode, "taskParameterDefinitions") : undefined;
  if (list?.kind !== "array") return [];
  return list.items.flatMap((item) => {
    const name = item.kind === "object" ? field(item, "name") : undefined;
    const type = item.kind === "object" ? field(item, "type") : undefined;
    return name?.kind === "string" ? [{ name: name.value, type: type?.kind === "string" ? type.value : "" }] : [];
  });
}

/** Names of the embedded files of a list of environments (their scripts' Env.File.* under EXPR). */
export function environmentFileNames(node: SourceNode | undefined): string[] {
  if (node?.kind !== "array") return [];
  return node.items.flatMap((env) => {
    const script = env.kind === "object" ? field(env, "script") : undefined;
    return embeddedFileNames(script?.kind === "object" ? field(script, "embeddedFiles") : undefined);
  });
}

function checkStepBody(
  ctx: ValidationContext,
  step: ObjectNode,
  path: Path,
  symbols: SymbolContext,
  taskParameters: readonly TaskParameterSymbol[],
): { script: StepScript; simpleAction?: SimpleActionKind } | null {
  const scriptNode = field(step, "script");
  const simple = ctx.has("FEATURE_BUNDLE_1") ? SIMPLE_ACTION_KINDS.filter((k) => field(step, k) !== undefined) : [];
  if (scriptNode !== undefined && simple.length > 0) {
    ctx.error(child(path, simple[0] ?? "script"), `a step has either 'script' or one simple action (${simple.join(", ")}), not both`, true);
    return null;
  }
  if (simple.length > 1) {
    ctx.error(child(path, simple[1] ?? ""), `a step has at most one simple action, found ${simple.join(", ")}`, true);
    return null;
  }
  const kind = simple[0];
  if (kind !== undefined) {
    const script = checkSimpleAction(ctx, field(step, kind) as SourceNode, child(path, kind), kind, symbols, taskParameters);
    return script ? { script, simpleAction: kind } : null;
  }
  if (scriptNode === undefined) {
    // A simple action without FEATURE_BUNDLE_1 is already reported; a missing script would only echo it.
    if (SIMPLE_ACTION_KINDS.some((k) => field(step, k) !== undefined)) return null;
    ctx.error(child(path, "script"), "missing required field 'script'");
    return null;
  }
  const script = checkStepScript(ctx, scriptNode, child(path, "script"), symbols, taskParameters);
  return script ? { script } : null;
}

function checkStepScript(ctx: ValidationContext, node: SourceNode, path: Path, symbols: SymbolContext, taskParameters: readonly TaskParameterSymbol[]): StepScript | null {
  const object = expectObject(ctx, node, path, { required: ["actions"], optional: ["embeddedFiles"], gated: { let: "EXPR" } });
  if (!object) return null;
  const filesNode = field(object, "embeddedFiles");
  const baseScope = symbols.stepScript(taskParameters, embeddedFileNames(filesNode));
  const lets = checkLets(ctx, field(object, "let"), child(path, "let"), baseScope);
  const scope = scopeWithSymbols(baseScope, lets.types);
  const embeddedFiles = checkEmbeddedFiles(ctx, filesNode, child(path, "embeddedFiles"), scope);
  const actionsNode = field(object, "actions");
  if (actionsNode === undefined) return null;
  const actionsPath = child(path, "actions");
  const actions = expectObject(ctx, actionsNode, actionsPath, { required: ["onRun"] });
  const onRunNode = actions && field(actions, "onRun");
  const onRun = onRunNode && checkAction(ctx, onRunNode, child(actionsPath, "onRun"), scope, symbols.template());
  if (!onRun) return null;
  return lets.bindings.length > 0 ? { actions: { onRun }, embeddedFiles, let: lets.bindings } : { actions: { onRun }, embeddedFiles };
}

/** A FEATURE_BUNDLE_1 simple action, desugared to an embedded file run by its interpreter. */
function checkSimpleAction(ctx: ValidationContext, node: SourceNode, path: Path, kind: SimpleActionKind, symbols: SymbolContext, taskParameters: readonly TaskParameterSymbol[]): StepScript | null {
  if (node.kind !== "object") {
    ctx.error(path, `expected a mapping, got ${kindName(node)}`);
    return null;
  }
  const object = expectObject(ctx, node, path, { required: ["script"], optional: ["args", "timeout", "cancelation"], gated: { let: "EXPR" } });
  if (!object) return null;
  const baseScope = symbols.stepScript(taskParameters, [SIMPLE_ACTION_FILE]);
  const lets = checkLets(ctx, field(object, "let"), child(path, "let"), baseScope);
  const scope = scopeWithSymbols(baseScope, lets.types);
  const scriptNode = field(object, "script");
  const data = scriptNode && readFormat(ctx, scriptNode, child(path, "script"), scope, { min: 1 });
  const runner = SIMPLE_ACTION_RUNNERS[kind];
  // The rest of the simple action is an ordinary action whose command is the interpreter.
  const actionEntries = object.entries.filter((e) => e.key !== "script" && e.key !== "let");
  const actionNode: ObjectNode = {
    kind: "object",
    span: object.span,
    entries: [{ key: "command", keySpan: null, value: { kind: "string", value: runner.command, span: null } }, ...actionEntries],
  };
  const action: Action | null = checkAction(ctx, actionNode, path, scope, symbols.template());
  if (!data || !action) return null;
  action.args = [...runner.argsBefore.map(literalFormatString), referenceFormatString(`Task.File.${SIMPLE_ACTION_FILE}`), ...(action.args ?? [])];
  const script: StepScript = {
    actions: { onRun: action },
    embeddedFiles: [{ name: SIMPLE_ACTION_FILE, type: "TEXT", filename: `simple-action${runner.extension}`, runnable: true, data, path: child(path, "script") }],
  };
  if (lets.bindings.length > 0) script.let = lets.bindings;
  return script;
}

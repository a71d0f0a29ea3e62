/** Environments (spec §4): name, script with onEnter/onExit (and WRAP_ACTIONS hooks), and/or variables. */
import type { Environment, EnvironmentScript, Path } from "../model";
import { kindName, type SourceNode } from "../source-node";
import { checkUnique, child, expectList, expectObject, field, namedItems, type ValidationContext } from "./context";
import { checkEmbeddedFiles, embeddedFileNames } from "./actions";
import { checkEnvironmentActions } from "./environment-actions";
import { readFormat } from "./format-fields";
import { readDescription } from "./parameter-definitions";
import { readString } from "./scalars";
import { checkLets } from "./lets";
import { scopeWithSymbols, type SymbolContext } from "./scopes";

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function checkEnvironmentList(ctx: ValidationContext, node: SourceNode | undefined, path: Path, symbols: SymbolContext): Environment[] {
  if (node === undefined) return [];
  const items = expectList(ctx, node, path);
  if (!items) return [];
  const environments: Environment[] = [];
  items.forEach((item, i) => {
    const env = checkEnvironment(ctx, item, child(path, i), symbols);
    if (env) environments.push(env);
  });
  checkUnique(ctx, namedItems(items, path), "environment name");
  return environments;
}

export function checkEnvironment(ctx: ValidationContext, node: SourceNode, path: Path, symbols: SymbolContext): Environment | null {
  const object = expectObject(ctx, node, path, { required: ["name"], optional: ["description", "script", "variables"] });
  if (!object) return null;
  const before = ctx.sink.count;
  const nameNode = field(object, "name");
  const name = nameNode && readString(ctx, nameNode, child(path, "name"), { min: 1, max: ctx.limits.nameLength, control: "all" });
  const description = readDescription(ctx, object, path);
  const scriptNode = field(object, "script");
  const variablesNode = field(object, "variables");
  if (scriptNode === undefined && variablesNode === undefined) {
    ctx.error(path, "an environment needs a script, variables, or both");
  }
  const script = scriptNode && checkEnvironmentScript(ctx, scriptNode, child(path, "script"), symbols);
  const variables = variablesNode && checkVariables(ctx, variablesNode, child(path, "variables"), symbols);
  if (ctx.sink.count !== before || !name) return null;
  const env: Environment = { name, path };
  if (description !== undefined) env.description = description;
  if (script) env.script = script;
  if (variables) env.variables = variables;
  return env;
}

function checkEnvironmentScript(ctx: ValidationContext, node: SourceNode, path: Path, symbols: SymbolContext): EnvironmentScript | null {
  const object = expectObject(ctx, node, path, { required: ["actions"], optional: ["embeddedFiles"], gated: { let: "EXPR" } });
  if (!object) return null;
  const filesNode = field(object, "embeddedFiles");
  const baseScope = symbols.environment(embeddedFileNames(filesNode));
  const lets = checkLets(ctx, field(object, "let"), child(path, "let"), baseScope);
  const scope = scopeWithSymbols(baseScope, lets.types);
  const embeddedFiles = checkEmbeddedFiles(ctx, filesNode, child(path, "embeddedFiles"), scope);
  const actionsNode = field(object, "actions");
  if (actionsNode === undefined) return null;
  const actions = checkEnvironmentActions(ctx, actionsNode, child(path, "actions"), { host: scope, template: symbols.template() });
  if (!actions) return null;
  const result: EnvironmentScript = { actions, embeddedFiles };
  if (lets.bindings.length > 0) result.let = lets.bindings;
  return result;
}

function checkVariables(ctx: ValidationContext, node: SourceNode, path: Path, symbols: SymbolContext): Environment["variables"] | null {
  if (node.kind !== "object") {
    ctx.error(path, `expected a mapping of variable names to values, got ${kindName(node)}`);
    return null;
  }
  if (node.entries.length === 0) ctx.error(path, "must not be empty (leave the field out instead)");
  const scope = symbols.environment([]);
  const variables: NonNullable<Environment["variables"]> = [];
  for (const entry of node.entries) {
    const p = child(path, entry.key);
    if (entry.key.length < 1 || entry.key.length > 256 || !VARIABLE_NAME.test(entry.key)) {
      ctx.error(p, `'${entry.key}' is not a valid environment variable name (letters, digits and '_', not starting with a digit, at most 256)`, true);
      continue;
    }
    const value = readFormat(ctx, entry.value, p, scope, { max: 2048 });
    if (value) variables.push({ name: entry.key, value });
  }
  return variables;
}

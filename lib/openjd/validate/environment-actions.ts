/**
 * `<EnvironmentActions>` (spec §4.3, RFC 0008 WRAP_ACTIONS): onEnter/onExit and the three wrap
 * hooks. The hooks are all-or-nothing, and only they see the `Wrapped*` values of the action
 * they replace — in every field they own (command, args, timeout, cancelation), nowhere else.
 */
import { WRAP_HOOKS, type EnvironmentActions, type Path } from "../model";
import type { SourceNode } from "../source-node";
import { checkAction } from "./actions";
import { child, expectObject, field, type ValidationContext } from "./context";
import { scopeWithSymbols, type Scope } from "./scopes";
import { wrappedSymbolTypes } from "./wrap-symbols";

export interface ActionScopes {
  /** Worker-side fields: command and args. */
  host: Scope;
  /** Fields resolved at job creation: timeout, cancelation (in hooks they are resolved on the worker). */
  template: Scope;
}

export function checkEnvironmentActions(ctx: ValidationContext, node: SourceNode, path: Path, scopes: ActionScopes): EnvironmentActions | null {
  const gated = Object.fromEntries(WRAP_HOOKS.map((hook) => [hook, "WRAP_ACTIONS" as const]));
  const object = expectObject(ctx, node, path, { optional: ["onEnter", "onExit"], gated });
  if (!object) return null;
  const written = WRAP_HOOKS.filter((hook) => field(object, hook) !== undefined);
  const onEnterNode = field(object, "onEnter");
  const onExitNode = field(object, "onExit");
  const wrap = ctx.has("WRAP_ACTIONS");
  if (wrap && written.length > 0 && written.length < WRAP_HOOKS.length) {
    const missing = WRAP_HOOKS.filter((hook) => !written.includes(hook));
    ctx.error(path, `an environment that defines a wrap hook must define all three (onWrapEnvEnter, onWrapTaskRun, onWrapEnvExit); missing ${missing.join(", ")}`);
  }
  if (onEnterNode === undefined && onExitNode === undefined && written.length === 0) {
    ctx.error(path, wrap ? "environment actions need onEnter, onExit, or the three wrap hooks" : "environment actions need onEnter, onExit, or both");
  }
  const actions: EnvironmentActions = {};
  const onEnter = onEnterNode && checkAction(ctx, onEnterNode, child(path, "onEnter"), scopes.host, scopes.template);
  const onExit = onExitNode && checkAction(ctx, onExitNode, child(path, "onExit"), scopes.host, scopes.template);
  if (onEnter) actions.onEnter = onEnter;
  if (onExit) actions.onExit = onExit;
  if (!wrap) return actions;
  for (const hook of written) {
    const wrapped = wrappedSymbolTypes(hook);
    const hookNode = field(object, hook) as SourceNode;
    const action = checkAction(ctx, hookNode, child(path, hook), scopeWithSymbols(scopes.host, wrapped), scopeWithSymbols(scopes.template, wrapped));
    if (action) actions[hook] = action;
  }
  return actions;
}

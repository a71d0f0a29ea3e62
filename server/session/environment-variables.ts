/**
 * The variables a Session gives its actions (spec digest §12.3, reference behaviour §3.4): the
 * base process environment, then the caller's extras (OPENJD_SESSION_WORKING_DIR), then each
 * entered environment in entry order — its `variables`, its openjd_env sets, its
 * openjd_unset_env unsets. An environment's layer disappears when it is exited.
 *
 * WrappedAction.Environment (WRAP_ACTIONS, RFC 0008) is a different view: only session-defined
 * variables, and openjd_env exports last for the whole Session — an export by an environment
 * that has since exited, or by a task, still reaches later wrap hooks (conformance
 * wrap-openjd-env-grand-child-under-exit-hook, wrap-openjd-env-task-grand-child-visible-next-task).
 */

export type VariableChange = { kind: "set"; name: string; value: string } | { kind: "unset"; name: string };

interface Layer {
  id: string;
  /** The environment's `variables` and openjd_env sets, in the order they happened. */
  sets: Map<string, string>;
  /** Applied after the sets: within one environment an unset wins over any set (spec digest §12.3). */
  unsets: Set<string>;
}

export class EnvironmentStack {
  private readonly base: ReadonlyMap<string, string>;
  private readonly layers: Layer[] = [];
  /** Every openjd_env export of the Session, minus later unsets; never dropped on exit. */
  private readonly exports = new Map<string, string>();

  constructor(base: Readonly<Record<string, string>>) {
    this.base = new Map(Object.entries(base));
  }

  get entered(): readonly string[] {
    return this.layers.map((layer) => layer.id);
  }

  enter(id: string, variables: ReadonlyArray<{ name: string; value: string }>): void {
    if (this.layers.some((layer) => layer.id === id)) throw new Error(`Environment ${id} has already been entered in this Session.`);
    this.layers.push({ id, sets: new Map(variables.map((v) => [v.name, v.value])), unsets: new Set() });
  }

  /** A change printed by the environment's onEnter (or onExit): set, set (redacted: not kept when the REDACTED_ENV_VARS extension is off — the caller decides), or unset. */
  change(id: string, change: VariableChange): void {
    const layer = this.layers.find((candidate) => candidate.id === id);
    if (!layer) throw new Error(`Cannot change variables of Environment ${id}: it is not entered.`);
    if (change.kind === "unset") {
      layer.unsets.add(change.name);
      this.exports.delete(change.name);
      return;
    }
    layer.sets.set(change.name, change.value);
    // A set its own environment already unset is dead for actions, so it is not exported either.
    if (!layer.unsets.has(change.name)) this.exports.set(change.name, change.value);
  }

  /**
   * A change printed by a task. It never reaches a process environment (reference behaviour §3.4,
   * §3.11 row 18) but, being an openjd_env export, it is part of WrappedAction.Environment.
   */
  taskChange(change: VariableChange): void {
    if (change.kind === "set") this.exports.set(change.name, change.value);
    else this.exports.delete(change.name);
  }

  /** Only the innermost environment may be exited; call it after that environment's onExit ran. */
  exit(id: string): void {
    const innermost = this.layers.at(-1);
    if (!this.layers.some((layer) => layer.id === id)) throw new Error(`Cannot exit unknown Environment with identifier ${id}`);
    if (innermost?.id !== id) throw new Error(`Cannot exit Environment ${id}. Must exit Environment ${innermost?.id} first.`);
    this.layers.pop();
  }

  /** The complete process environment for an action now (base + layers). */
  processEnv(extra: Readonly<Record<string, string>> = {}): Record<string, string> {
    const env = new Map(this.base);
    for (const [name, value] of Object.entries(extra)) env.set(name, value);
    this.applyLayers(env);
    // fromEntries defines own properties, so even a variable named __proto__ survives.
    return Object.fromEntries(env);
  }

  /** Session-defined variables only (variables maps + openjd_env sets of entered environments, after unsets), as "KEY=value" in a stable order — WrappedAction.Environment. */
  sessionDefined(): string[] {
    // Entered environments win over older exports, as they do in processEnv.
    const variables = new Map(this.exports);
    this.applyLayers(variables);
    return [...variables.keys()].sort(compareNames).map((name) => `${name}=${variables.get(name)}`);
  }

  private applyLayers(env: Map<string, string>): void {
    for (const layer of this.layers) {
      for (const [name, value] of layer.sets) env.set(name, value);
      for (const name of layer.unsets) env.delete(name);
    }
  }
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

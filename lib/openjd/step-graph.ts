/** The step dependency graph: cycle detection and a stable dependency order. */

export interface StepNode {
  name: string;
  dependencies: readonly string[];
}

/** Returns one cycle as a list of step names (first name repeated at the end), or null for a DAG. */
export function findCycle(steps: readonly StepNode[]): string[] | null {
  const byName = new Map(steps.map((s) => [s.name, s]));
  const state = new Map<string, "visiting" | "done">();
  const stack: string[] = [];
  const visit = (name: string): string[] | null => {
    const current = state.get(name);
    if (current === "done") return null;
    if (current === "visiting") return [...stack.slice(stack.indexOf(name)), name];
    state.set(name, "visiting");
    stack.push(name);
    for (const dep of byName.get(name)?.dependencies ?? []) {
      if (!byName.has(dep)) continue;
      const cycle = visit(dep);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(name, "done");
    return null;
  };
  for (const step of steps) {
    const cycle = visit(step.name);
    if (cycle) return cycle;
  }
  return null;
}

/**
 * Steps ordered so that every step comes after its dependencies; among steps that are ready at
 * the same time the template order is kept, so the order is deterministic and familiar.
 */
export function dependencyOrder<T extends StepNode>(steps: readonly T[]): T[] {
  const remaining = new Map(steps.map((s) => [s.name, new Set(s.dependencies.filter((d) => d !== s.name))]));
  const ordered: T[] = [];
  const placed = new Set<string>();
  while (ordered.length < steps.length) {
    const next = steps.find((s) => !placed.has(s.name) && [...(remaining.get(s.name) ?? [])].every((d) => placed.has(d)));
    if (!next) break; // a cycle: validation reports it; keep the rest in template order
    ordered.push(next);
    placed.add(next.name);
  }
  for (const s of steps) if (!placed.has(s.name)) ordered.push(s);
  return ordered;
}

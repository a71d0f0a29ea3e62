/**
 * How the farm stores a step's resolved dependencies (steps.resolved_dependencies): the shape of
 * lib/openjd's ResolvedDependency, declared here because server/db and server/store read it and
 * may not import lib/openjd (server/checks/plan-dependencies.ts checks the two stay assignable).
 */
export const DEPENDENCY_KINDS = ["step", "step-any", "tasks", "tasks-any"] as const;
export type StoredDependencyKind = (typeof DEPENDENCY_KINDS)[number];

export interface StoredDependency {
  index: number;
  dependsOn: string;
  upstreamStep: number;
  self: boolean;
  kind: StoredDependencyKind;
  label: string;
  edges: number;
}

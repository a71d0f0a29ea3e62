/**
 * RFC 0008's one-wrapper rule over whole Session stacks, known once the environment templates
 * are: they are entered first, then the job environments, then each step's environments. A
 * stack with two wrapping environments must be refused before anything is entered.
 */
import type { EnvironmentTemplate, JobTemplate, Environment } from "../model";
import { isWrappingEnvironment, tooManyWrappers } from "../wrap-stack";
import type { ErrorOrigin, JobError } from "./types";

interface Placed {
  environment: Environment;
  origin: ErrorOrigin;
}

export function wrappingEnvironmentErrors(environmentTemplates: readonly EnvironmentTemplate[], template: JobTemplate): JobError[] {
  const wrapping = (list: readonly Placed[]) => list.filter((p) => isWrappingEnvironment(p.environment));
  const outer = wrapping([
    ...environmentTemplates.map((t, index): Placed => ({ environment: t.environment, origin: { kind: "environment", index } })),
    ...template.jobEnvironments.map((environment): Placed => ({ environment, origin: { kind: "template" } })),
  ]);
  const errors: JobError[] = [];
  const report = (stack: readonly Placed[], stepName?: string) => {
    const first = stack[0];
    for (const extra of stack.slice(1)) {
      if (first) errors.push({ origin: extra.origin, segments: [...extra.environment.path], message: tooManyWrappers(first.environment, extra.environment, stepName) });
    }
  };
  report(outer);
  if (outer.length > 1) return errors;
  for (const step of template.steps) {
    const inner = wrapping(step.stepEnvironments.map((environment): Placed => ({ environment, origin: { kind: "template" } })));
    report([...outer, ...inner], step.name);
  }
  return errors;
}

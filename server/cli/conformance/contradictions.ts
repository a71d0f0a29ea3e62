/**
 * Cases of the public suite that contradict other cases. Loom follows the spec digest for the
 * rule in question; the runner reports these with the reason instead of counting them.
 */

export interface Contradiction {
  /** File name of the case (without folders). */
  file: string;
  reason: string;
}

const LIST_PATH_ABSOLUTE_DEFAULTS =
  "contradicts EXPR/jobs/2.12--list-path-default-absolute-posix.invalid.test.yaml: it uses absolute LIST[PATH] defaults, which that case " +
  "refuses because each item follows the PATH default rules (spec digest §4.2: defaults must be relative); Loom follows the spec and refuses them";

const LIST_PATH_RELATIVE_DEFAULTS_UNJOINED =
  "contradicts EXPR/jobs/2.12--list-path-default-within-template-dir.test.yaml: it expects the relative LIST[PATH] default items " +
  "'renders/a.exr' to reach the task unchanged, while that case (and base/jobs/1.1--path-default-joined-with-template-dir) expects " +
  "relative defaults joined with the job template's directory (spec digest §4.2); Loom follows the spec and joins them";

export const CONTRADICTIONS: readonly Contradiction[] = [
  { file: "2.12--list-path-param-mapping.test.yaml", reason: LIST_PATH_ABSOLUTE_DEFAULTS },
  { file: "2.12--list-path-param-mapping-posix.test.yaml", reason: LIST_PATH_ABSOLUTE_DEFAULTS },
  { file: "2.12--list-path-param-runtime.test.yaml", reason: LIST_PATH_RELATIVE_DEFAULTS_UNJOINED },
  { file: "2.12--list-path-param-runtime-posix.test.yaml", reason: LIST_PATH_RELATIVE_DEFAULTS_UNJOINED },
];

export function contradiction(file: string): string | null {
  const name = file.split(/[\\/]/).at(-1) ?? file;
  return CONTRADICTIONS.find((c) => c.file === name)?.reason ?? null;
}

/**
 * Test support for the check threads: templates that take lib/openjd a long time to check, each
 * step's `let` a list comprehension just inside the EXPR budget (lib/openjd/expr/budget.ts: a
 * million elements is about 1.5 s to check and as long again to create, per step, on a fast core).
 */

/** A job template of `steps` steps, each with a `let` that evaluates a `size`-element comprehension. */
export function slowTemplate(steps = 20, size = 1_000_000): string {
  let text = "specificationVersion: jobtemplate-2023-09\nextensions: [EXPR]\nname: slow\nsteps:\n";
  for (let i = 0; i < steps; i++) {
    text += `- name: Step${i}\n  let: ["n = len([i * 2 for i in range(${size})])"]\n  script:\n    actions:\n      onRun: {command: echo, args: ["{{ n }}"]}\n`;
  }
  return text;
}

/** A job of `a` × `b` tasks (a product of two INT parameters) in one step. */
export function productTemplate(a: number, b: number): string {
  return `specificationVersion: jobtemplate-2023-09
name: product
steps:
- name: Render
  parameterSpace:
    taskParameterDefinitions:
    - {name: Frame, type: INT, range: "1-${a}"}
    - {name: Tile, type: INT, range: "1-${b}"}
  script:
    actions:
      onRun: {command: echo, args: ["{{Task.Param.Frame}}", "{{Task.Param.Tile}}"]}
`;
}

/**
 * A parameter_values.json that the YAML parser takes long to read although it is small (about
 * 200 KB: nested flow lists cost it far more per value than anything else), and still inside
 * the parser's token cap (250,000). About 0.8 s on a fast core: a test of the refusal gives it
 * a budget well below that, not the 1 s it once passed on only on slower machines.
 */
export function slowParameterValues(lists = 33_000): string {
  return `{"Many": [${Array.from({ length: lists }, () => "[[1]]").join(",")}]}`;
}

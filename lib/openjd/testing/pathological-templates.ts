/**
 * Inputs built to hang, overflow or exhaust a template validator: huge range expressions,
 * nesting 100,000 levels deep in every syntax, multi-megabyte strings, thousands of list items
 * and steps, the largest legal parameter space, alias bombs. Each says whether validation must
 * reject it (`error`) or may accept it (`any`); either way it must answer quickly.
 */
import { SOURCE_LIMITS, type DocumentFormat } from "../parse-source";

export interface PathologicalInput {
  name: string;
  text: string;
  format: DocumentFormat;
  expect: "error" | "any";
}

const HEAD = "specificationVersion: jobtemplate-2023-09\nname: Pathological\n";
const DEEP = 100_000;

function step(body: string, name = "S"): string {
  return `steps:\n- name: ${name}\n${body}  script:\n    actions:\n      onRun:\n        command: echo\n`;
}

function intParameter(name: string, range: string): string {
  return `    - name: ${name}\n      type: INT\n      range: ${range}\n`;
}

function space(parameters: string, combination?: string): string {
  return `  parameterSpace:\n    taskParameterDefinitions:\n${parameters}${combination ? `    combination: ${JSON.stringify(combination)}\n` : ""}`;
}

function jobJson(steps: unknown[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ specificationVersion: "jobtemplate-2023-09", name: "Pathological", ...extra, steps });
}

const action = { actions: { onRun: { command: "echo" } } };

/**
 * Steps S0…S(n-1), each depending on the one before (or, `reversed`, on the one after: a
 * depth-first walk from S0 then goes n levels deep); `cycle` closes the chain into a loop.
 */
function chainedSteps(count: number, cycle: boolean, reversed = false): unknown[] {
  return Array.from({ length: count }, (_, i) => {
    const j = reversed ? count - 1 - i : i;
    const dependsOn = j > 0 ? `S${reversed ? i + 1 : i - 1}` : cycle ? `S${reversed ? 0 : count - 1}` : null;
    return { name: `S${i}`, ...(dependsOn ? { dependencies: [{ dependsOn }] } : {}), script: action };
  });
}

function embeddedFile(data: string): string {
  return jobJson([{ name: "S", script: { ...action, embeddedFiles: [{ name: "f", type: "TEXT", data }] } }]);
}

/** Nine levels of ten aliases each: 10^9 values once expanded, from 300 bytes of text. */
function billionLaughs(levels: number): string {
  const lines = [`l0: &l0 [${Array(10).fill("lol").join(", ")}]`];
  for (let i = 1; i < levels; i++)
    lines.push(
      `l${i}: &l${i} [${Array(10)
        .fill(`*l${i - 1}`)
        .join(", ")}]`,
    );
  return `${lines.join("\n")}\n`;
}

function sixteenParameters(values: string): string {
  return Array.from({ length: 16 }, (_, i) => intParameter(`P${i}`, JSON.stringify(values))).join("");
}

export function pathologicalInputs(): PathologicalInput[] {
  const names16 = Array.from({ length: 16 }, (_, i) => `P${i}`);
  const inputs: PathologicalInput[] = [
    { name: "range 1-9999999999", text: HEAD + step(space(intParameter("F", '"1-9999999999"'))), format: "yaml", expect: "error" },
    { name: "range int64 min..max", text: HEAD + step(space(intParameter("F", '"-9223372036854775808-9223372036854775807"'))), format: "yaml", expect: "error" },
    { name: "range past int64", text: HEAD + step(space(intParameter("F", '"-9223372036854775809-9223372036854775808"'))), format: "yaml", expect: "error" },
    { name: "range 10,000 comma items", text: HEAD + step(space(intParameter("F", JSON.stringify(Array.from({ length: 10_000 }, (_, i) => i * 2).join(","))))), format: "yaml", expect: "error" },
    { name: "range list of 10,000 items", text: HEAD + step(space(intParameter("F", `[${Array.from({ length: 10_000 }, (_, i) => i).join(", ")}]`))), format: "yaml", expect: "error" },
    {
      name: "10,000 parameter definitions",
      text: HEAD + "parameterDefinitions:\n" + Array.from({ length: 10_000 }, (_, i) => `- {name: P${i}, type: INT}\n`).join("") + step(""),
      format: "yaml",
      expect: "error",
    },
    { name: "args list of 10,000 items", text: HEAD + step("") + `        args: [${Array.from({ length: 10_000 }, (_, i) => `a${i}`).join(", ")}]\n`, format: "yaml", expect: "any" },
    { name: "YAML flow lists 100,000 deep", text: `${HEAD}description: ${"[".repeat(DEEP)}${"]".repeat(DEEP)}\n`, format: "yaml", expect: "error" },
    { name: "YAML flow maps 100,000 deep", text: `${HEAD}description: ${"{a: ".repeat(DEEP)}1${"}".repeat(DEEP)}\n`, format: "yaml", expect: "error" },
    { name: "YAML flow unclosed 100,000 deep", text: `${HEAD}description: ${"[{".repeat(DEEP / 2)}\n`, format: "yaml", expect: "error" },
    { name: "YAML block lists 100,000 deep", text: `${"- ".repeat(DEEP)}x\n`, format: "yaml", expect: "error" },
    { name: "YAML block maps 2,000 deep", text: Array.from({ length: 2000 }, (_, i) => `${" ".repeat(i)}a:`).join("\n") + " 1\n", format: "yaml", expect: "error" },
    { name: "YAML explicit keys 100,000 deep", text: `${"? ".repeat(DEEP)}x\n`, format: "yaml", expect: "error" },
    { name: "JSON arrays 100,000 deep", text: `${"[".repeat(DEEP)}${"]".repeat(DEEP)}`, format: "json", expect: "error" },
    { name: "JSON objects 100,000 deep", text: `${'{"a":'.repeat(DEEP)}1${"}".repeat(DEEP)}`, format: "json", expect: "error" },
    {
      name: "JSON deep inside a template",
      text: jobJson([{ name: "S", script: action }], { description: "DEEP" }).replace('"DEEP"', `${"[".repeat(5000)}${"]".repeat(5000)}`),
      format: "json",
      expect: "error",
    },
    { name: "5 MB job name", text: `specificationVersion: jobtemplate-2023-09\nname: ${"n".repeat(5_000_000)}\n${step("")}`, format: "yaml", expect: "error" },
    { name: "3.5 MB job name", text: `specificationVersion: jobtemplate-2023-09\nname: ${"n".repeat(3_500_000)}\n${step("")}`, format: "yaml", expect: "error" },
    { name: "5 MB quoted description", text: `${HEAD}description: "${"\\u00e9x".repeat(800_000)}"\n${step("")}`, format: "yaml", expect: "error" },
    { name: "5 MB embedded file", text: embeddedFile("d\n".repeat(2_500_000)), format: "json", expect: "error" },
    { name: "3 MB embedded file", text: embeddedFile("data\n".repeat(600_000)), format: "json", expect: "any" },
    { name: "3 MB folded block scalar", text: `${HEAD}${step("")}  description: >\n${"    folded line\n\n".repeat(170_000)}`, format: "yaml", expect: "error" },
    { name: "text over the size limit", text: `${HEAD}description: ${"x".repeat(SOURCE_LIMITS.maxTextLength)}\n`, format: "yaml", expect: "error" },
    { name: "1,000 chained steps", text: jobJson(chainedSteps(1000, false)), format: "json", expect: "any" },
    { name: "5,000 chained steps", text: jobJson(chainedSteps(5000, false)), format: "json", expect: "any" },
    { name: "6,000 steps chained in reverse order", text: jobJson(chainedSteps(6000, false, true)), format: "json", expect: "any" },
    { name: "6,000 steps in a reversed cycle", text: jobJson(chainedSteps(6000, true, true)), format: "json", expect: "error" },
    { name: "1,000 steps in a dependency cycle", text: jobJson(chainedSteps(1000, true)), format: "json", expect: "error" },
    { name: "16 parameters × 1024 values", text: HEAD + step(space(sixteenParameters("1-1024"))), format: "yaml", expect: "any" },
    { name: "16 parameters × 1024, associated", text: HEAD + step(space(sixteenParameters("1-1024"), `(${names16.join(", ")})`)), format: "yaml", expect: "any" },
    { name: "16 parameters × 1025 values", text: HEAD + step(space(sixteenParameters("0-1024"))), format: "yaml", expect: "error" },
    {
      name: "long combination expression",
      text:
        HEAD +
        step(
          space(
            sixteenParameters("1-4"),
            names16
              .map((n) => `(${n})`)
              .join(" * ")
              .repeat(40),
          ),
        ),
      format: "yaml",
      expect: "error",
    },
    { name: "combination nested 600 parentheses", text: HEAD + step(space(intParameter("A", "[1]"), `${"(".repeat(600)}A${")".repeat(600)}`)), format: "yaml", expect: "error" },
    { name: "combination nested 10,000 parentheses", text: HEAD + step(space(intParameter("A", "[1]"), `${"(".repeat(10_000)}A${")".repeat(10_000)}`)), format: "yaml", expect: "error" },
    { name: "billion laughs", text: billionLaughs(9), format: "yaml", expect: "error" },
    {
      name: "10,000 aliases in a template",
      text: `${HEAD.replace("Pathological", "&n Pathological")}${step("")}        args: [${Array(10_000).fill("*n").join(", ")}]\n`,
      format: "yaml",
      expect: "any",
    },
    { name: "alias inside its own anchor", text: "a: &a [*a, *a]\n", format: "yaml", expect: "error" },
    { name: "100,000 mapping keys", text: Array.from({ length: 100_000 }, (_, i) => `k${i}: ${i}`).join("\n"), format: "yaml", expect: "error" },
    { name: "20,000 mapping keys", text: HEAD + step("") + Array.from({ length: 20_000 }, (_, i) => `x${i}: ${i}`).join("\n"), format: "yaml", expect: "error" },
    { name: "1,000,000-item flow list", text: `[${"1,".repeat(999_999)}1]`, format: "json", expect: "error" },
    { name: "format string with 50,000 references", text: HEAD.replace("Pathological", "{{Param.X}}".repeat(50_000)) + step(""), format: "yaml", expect: "error" },
  ];
  return inputs;
}

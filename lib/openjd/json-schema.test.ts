/**
 * The published template schemas accept every valid template we have (the spec samples and the
 * conformance suite's valid job and environment templates) and refuse some plainly wrong shapes,
 * checked with the small validator in json-schema-check.ts.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { checkAgainstSchema } from "./json-schema-check";
import { ENVIRONMENT_TEMPLATE_SCHEMA, JOB_TEMPLATE_SCHEMA, schemaForText, TEMPLATE_SCHEMAS } from "./json-schema";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const samples = resolve(process.env.OPENJD_SAMPLES_DIR ?? join(root, "..", "shared", "openjd-samples"));
const suite = join(samples, "conformance", "2023-09");

/** `sample-template.yaml` is the spec repo's contributor skeleton, not a template. */
const NOT_TEMPLATES = new Set(["sample-template.yaml"]);

function validFiles(): Array<[string, string]> {
  const dirs = [samples];
  if (existsSync(suite)) for (const folder of readdirSync(suite).sort()) dirs.push(join(suite, folder, "job_templates"), join(suite, folder, "env_templates"));
  return dirs
    .filter((dir) => existsSync(dir))
    .flatMap((dir) =>
      readdirSync(dir)
        .filter((f) => /\.(ya?ml|json)$/.test(f) && !f.includes(".invalid") && !NOT_TEMPLATES.has(f))
        .map((f): [string, string] => [f, join(dir, f)]),
    );
}

const check = (text: string) => {
  const value: unknown = parse(text);
  return checkAgainstSchema(value, schemaForText(text));
};

describe("template JSON schemas", () => {
  const files = validFiles();
  it.skipIf(files.length === 0)("accept every valid sample and conformance template", () => {
    expect(files.length).toBeGreaterThan(50);
    const refused = files.flatMap(([name, file]) => check(readFileSync(file, "utf8")).map((p) => `${name}: ${p.path}: ${p.message}`));
    expect(refused).toEqual([]);
  });

  const JOB = "specificationVersion: jobtemplate-2023-09\nname: J\nsteps:\n- name: S\n  script:\n    actions:\n      onRun: {command: echo}\n";
  it.each([
    ["an unknown root key", JOB + "bogus: 1\n", "bogus"],
    ["a missing steps list", "specificationVersion: jobtemplate-2023-09\nname: J\n", ""],
    ["an empty steps list", "specificationVersion: jobtemplate-2023-09\nname: J\nsteps: []\n", "steps"],
    ["a step without a name", JOB.replace("- name: S\n  script", "- script"), "steps[0]"],
    ["an unknown parameter type", JOB + "parameterDefinitions:\n- {name: P, type: TEXT}\n", "parameterDefinitions[0].type"],
    ["a bad parameter name", JOB + "parameterDefinitions:\n- {name: 1P, type: INT}\n", "parameterDefinitions[0].name"],
    ["an unknown control", JOB + "parameterDefinitions:\n- {name: P, type: INT, userInterface: {control: SLIDER}}\n", "parameterDefinitions[0].userInterface.control"],
    ["a bad cancelation mode", JOB.replace("{command: echo}", "{command: echo, cancelation: {mode: KILL}}"), "steps[0].script.actions.onRun.cancelation.mode"],
    ["an environment with a step key", "specificationVersion: environment-2023-09\nenvironment: {name: E, variables: {A: '1'}, steps: []}\n", "environment.steps"],
  ])("refuse %s", (_label, text, path) => {
    const problems = check(text);
    expect(problems.map((p) => p.path)).toContain(path);
  });

  it("accept case-insensitive EXPR type names and a bare range expression", () => {
    const text =
      JOB.replace("  script:", "  parameterSpace:\n    taskParameterDefinitions:\n    - {name: F, type: int, range: '1-10'}\n  script:") +
      "parameterDefinitions:\n- {name: L, type: 'list[string]', default: [a]}\n";
    expect(check(text)).toEqual([]);
  });

  it("accept TASK_DEPENDENCIES subspaces: a list, allOf, anyOf, string and list ranges", () => {
    const step = (dependency: string) => JOB.replace("- name: S\n", `- name: S\n  dependencies:\n  - dependsOn: S\n    dependsOnSubspace: ${dependency}\n`);
    for (const subspace of ["[{name: F, range: '{{Task.Param.F}}'}]", "{allOf: [{name: F, range: [0]}]}", "{anyOf: [{name: F, range: ['{{Task.Param.F - 1}}', 2.5]}]}"]) {
      expect(check(step(subspace)), subspace).toEqual([]);
    }
    expect(check(step("{allOf: [{name: F, range: '1'}], anyOf: [{name: F, range: '1'}]}")).map((p) => p.path)).toContain("steps[0].dependencies[0].dependsOnSubspace");
    expect(check(step("[{name: F}]")).map((p) => p.path)).toContain("steps[0].dependencies[0].dependsOnSubspace");
  });

  it("publish both schemas with their own version constant", () => {
    expect(Object.keys(TEMPLATE_SCHEMAS).sort()).toEqual(["environment-2023-09.json", "jobtemplate-2023-09.json"]);
    expect(JOB_TEMPLATE_SCHEMA.properties?.specificationVersion?.const).toBe("jobtemplate-2023-09");
    expect(ENVIRONMENT_TEMPLATE_SCHEMA.properties?.specificationVersion?.const).toBe("environment-2023-09");
    expect(schemaForText('{"specificationVersion": "environment-2023-09"}')).toBe(ENVIRONMENT_TEMPLATE_SCHEMA);
    expect(schemaForText(JOB)).toBe(JOB_TEMPLATE_SCHEMA);
    // Serializable as served: no functions, no cycles.
    expect(JSON.parse(JSON.stringify(JOB_TEMPLATE_SCHEMA))).toEqual(JOB_TEMPLATE_SCHEMA);
  });
});

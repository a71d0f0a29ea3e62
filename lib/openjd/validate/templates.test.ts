/**
 * Root documents (spec §1.1, §1.2, §7; digest §1–§3, §13.1–§13.3, §15; catalogue rows 1–8):
 * root fields, specificationVersion, unknown keys, `$schema`, the `extensions` list, the limits
 * FEATURE_BUNDLE_1 raises, and environment templates.
 */
import { describe, expect, it } from "vitest";
import { checkTemplateText } from "../template";
import { expectError, expectValid, job, minimalEnvironmentTemplate, minimalJob, set, toText, withExtensions, type Doc, type InvalidRow, type ValidRow } from "./template-test-support";

const fb1 = (doc: Doc) => withExtensions(doc, "FEATURE_BUNDLE_1");
const params = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `P${i}`, type: "STRING" }));
const envTemplate = (...changes: Array<[string, unknown]>) => changes.reduce((d, [p, v]) => set(d, p, v), minimalEnvironmentTemplate());

describe("job template root", () => {
  it.each<ValidRow>([
    ["the minimal template", minimalJob()],
    ["$schema is ignored", job(["$schema", "https://example.com/schema.json"])],
    ["job name of exactly 128 characters", job(["name", "n".repeat(128)])],
    ["job name longer than 128 before resolution (checked after it)", { ...job(["name", `${"n".repeat(128)}{{Param.X}}`]), parameterDefinitions: [{ name: "X", type: "STRING" }] }],
    ["every supported extension", withExtensions(minimalJob(), "TASK_CHUNKING", "REDACTED_ENV_VARS", "FEATURE_BUNDLE_1")],
    ["a description of 2048 characters", job(["description", "d".repeat(2048)])],
  ])("%s", (_name, doc) => expectValid(doc));

  it.each<InvalidRow>([
    ["no specificationVersion", job(["specificationVersion", undefined]), "specificationVersion", /missing required field 'specificationVersion'/],
    ["an unknown version", job(["specificationVersion", "jobtemplate-2099-01"]), "specificationVersion", /unknown specificationVersion/],
    ["a version that is a number", job(["specificationVersion", 2023]), "specificationVersion", /unknown specificationVersion/],
    ["a version in the wrong case", job(["specificationVersion", "JOBTEMPLATE-2023-09"]), "specificationVersion", /unknown specificationVersion/],
    ["no name", job(["name", undefined]), "name", /missing required field 'name'/],
    ["job name of 129 characters", job(["name", "n".repeat(129)]), "name", /at most 128/],
    ["job name with a newline", job(["name", "a\nb"]), "name", /control characters/],
    ["job name that is a number", job(["name", 5]), "name", /expected a string/],
    ["unknown root key", job(["Name", "J"]), "Name", /unknown field 'Name'/],
    ["steps: null", job(["steps", null]), "steps", /expected a list, got null/],
    ["description: null", job(["description", null]), "description", /expected a string, got null/],
    ["$schema that is not a string", job(["$schema", 5]), "$schema", /expected a string/],
    ["an environment template's key in a job template", job(["environment", {}]), "environment", /unknown field 'environment'/],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));

  it.each<[string, string, RegExp]>([
    ["a document that is a list", "- a\n", /must be a mapping/],
    ["a document that is null", "null\n", /must be a mapping/],
    ["an empty document", "", /empty/],
  ])("%s", (_name, text, message) => expectError(text, "", message));
});

describe("extensions", () => {
  const ext = (...names: unknown[]) => ({ ...minimalJob(), extensions: names });
  it.each<InvalidRow>([
    ["empty list", ext(), "extensions", /must not be empty/],
    ["a string instead of a list", { ...minimalJob(), extensions: "TASK_CHUNKING" }, "extensions", /expected a list/],
    ["an unknown extension", ext("TASK_CHUNKING", "FOO_BAR"), "extensions[1]", /unknown extension 'FOO_BAR'/],
    ["a name shorter than 3 characters", ext("AB"), "extensions[0]", /not a valid extension name/],
    ["a lower-case name", ext("task_chunking"), "extensions[0]", /not a valid extension name/],
    ["a name of 129 characters", ext("A".repeat(129)), "extensions[0]", /not a valid extension name/],
    ["a duplicate", ext("TASK_CHUNKING", "TASK_CHUNKING"), "extensions[1]", /listed twice/],
    ["a number", ext(5), "extensions[0]", /expected an extension name/],
    ["WRAP_ACTIONS without its prerequisite EXPR", ext("WRAP_ACTIONS"), "extensions[0]", /extension 'WRAP_ACTIONS' requires extension EXPR \(add it to 'extensions'\)/],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));

  it("reports a supported extension's feature used without declaring it, per document", () => {
    expectError(job(["steps[0].script.actions.onRun.timeout", "5"]), "steps[0].script.actions.onRun.timeout", /requires extension FEATURE_BUNDLE_1 \(add it to 'extensions'\)/);
  });
});

describe("FEATURE_BUNDLE_1 limits", () => {
  const longEnv = (name: string) => [{ name, variables: { A: "1" } }];
  it.each<ValidRow>([
    ["200 job parameters", fb1({ ...minimalJob(), parameterDefinitions: params(200) })],
    ["job name of 512 characters", fb1(job(["name", "n".repeat(512)]))],
    ["step name of 512 characters", fb1(job(["steps[0].name", "s".repeat(512)]))],
    ["job environment name of 512 characters", fb1(job(["jobEnvironments", longEnv("e".repeat(512))]))],
    ["step environment name of 512 characters", fb1(job(["steps[0].stepEnvironments", longEnv("e".repeat(512))]))],
    ["task parameter name of 512 characters", fb1(job(["steps[0].parameterSpace.taskParameterDefinitions", [{ name: "T".repeat(512), type: "INT", range: [1] }]]))],
    ["embedded file name of 512 and filename of 256 characters", fb1(job(["steps[0].script.embeddedFiles", [{ name: "F".repeat(512), type: "TEXT", data: "x", filename: "f".repeat(256) }]]))],
  ])("%s", (_name, doc) => expectValid(doc));

  it.each<InvalidRow>([
    ["200 job parameters without FEATURE_BUNDLE_1", { ...minimalJob(), parameterDefinitions: params(200) }, "parameterDefinitions", /at most 50/],
    ["201 job parameters", fb1({ ...minimalJob(), parameterDefinitions: params(201) }), "parameterDefinitions", /at most 200/],
    ["step name of 65 characters without FEATURE_BUNDLE_1", job(["steps[0].name", "s".repeat(65)]), "steps[0].name", /at most 64/],
    ["job name of 513 characters", fb1(job(["name", "n".repeat(513)])), "name", /at most 512/],
    ["step environment name of 513 characters", fb1(job(["steps[0].stepEnvironments", longEnv("e".repeat(513))])), "steps[0].stepEnvironments[0].name", /at most 512/],
    ["parameter name of 513 characters", fb1({ ...minimalJob(), parameterDefinitions: [{ name: "P".repeat(513), type: "INT" }] }), "parameterDefinitions[0].name", /at most 512/],
    ["embedded file name of 513 characters", fb1(job(["steps[0].script.embeddedFiles", [{ name: "F".repeat(513), type: "TEXT", data: "x" }]])), "steps[0].script.embeddedFiles[0].name", /at most 512/],
    ["environment template still has at most 50 parameters", fb1(envTemplate(["parameterDefinitions", params(51)])), "parameterDefinitions", /at most 50/],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));
});

describe("environment templates", () => {
  it.each<ValidRow>([
    ["the minimal environment template", minimalEnvironmentTemplate()],
    [
      "with $schema, extensions and parameters used by the environment",
      envTemplate(["$schema", "s"], ["extensions", ["FEATURE_BUNDLE_1"]], ["parameterDefinitions", [{ name: "P", type: "PATH" }]], ["environment.variables", { A: "{{Param.P}}" }]),
    ],
    ["50 parameters", envTemplate(["parameterDefinitions", params(50)])],
    [
      "FEATURE_BUNDLE_1 features in an environment template",
      envTemplate(["extensions", ["FEATURE_BUNDLE_1"]], ["environment.name", "e".repeat(512)], ["environment.script.actions.onEnter.timeout", "30"]),
    ],
  ])("%s", (_name, doc) => expectValid(doc));

  it.each<InvalidRow>([
    ["no environment", envTemplate(["environment", undefined]), "environment", /missing required field 'environment'/],
    ["steps in an environment template", envTemplate(["steps", []]), "steps", /unknown field 'steps'/],
    ["a name at the root", envTemplate(["name", "E"]), "name", /unknown field 'name'/],
    ["51 parameters", envTemplate(["parameterDefinitions", params(51)]), "parameterDefinitions", /at most 50/],
    ["empty parameterDefinitions", envTemplate(["parameterDefinitions", []]), "parameterDefinitions", /must not be empty/],
    ["an environment without script or variables", envTemplate(["environment", { name: "E" }]), "environment", /needs a script, variables, or both/],
    ["a Task value in the environment", envTemplate(["environment.script.actions.onEnter.command", "{{Task.Param.X}}"]), "environment.script.actions.onEnter.command", /Task\.Param\.X does not exist/],
    ["WRAP_ACTIONS without EXPR in an environment template", envTemplate(["extensions", ["WRAP_ACTIONS"]]), "extensions[0]", /extension 'WRAP_ACTIONS' requires extension EXPR/],
    [
      "an environment feature gated by an extension the template did not declare",
      envTemplate(["environment.script.actions.onEnter.timeout", "30"]),
      "environment.script.actions.onEnter.timeout",
      /requires extension FEATURE_BUNDLE_1/,
    ],
  ])("%s", (_name, doc, path, message) => expectError(doc, path, message));

  it("a caller expecting a job template refuses an environment template (and the other way round)", () => {
    const asJob = checkTemplateText(toText(minimalEnvironmentTemplate()), "yaml", "job");
    expect(asJob.errors.map((e) => [e.path, e.message])).toEqual([["specificationVersion", expect.stringMatching(/expected a job template/)]]);
    const asEnvironment = checkTemplateText(toText(minimalJob()), "yaml", "environment");
    expect(asEnvironment.errors.map((e) => e.path)).toEqual(["specificationVersion"]);
  });

  it("a valid template comes back typed, an invalid one as null", () => {
    expect(checkTemplateText(toText(minimalEnvironmentTemplate()), "yaml").template?.kind).toBe("environment");
    expect(checkTemplateText(toText(job(["name", ""])), "yaml").template).toBeNull();
  });
});

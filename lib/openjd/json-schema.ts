/**
 * JSON Schemas (draft-07) of the OpenJD 2023-09 job template and environment template, with the
 * extensions Loom supports (TASK_CHUNKING, REDACTED_ENV_VARS, FEATURE_BUNDLE_1, EXPR,
 * WRAP_ACTIONS, TASK_DEPENDENCIES). They drive the editor's completions and hover docs and are published at
 * /schema/<name>.json for editors such as VS Code. They describe the shape only: lib/openjd's
 * validator stays the authority on every rule (scopes, ranges, UI control pairings), so the
 * schema accepts what it cannot check rather than reject a valid template.
 */
import { KNOWN_EXTENSIONS } from "./extensions";
import type { JsonSchema } from "./json-schema-types";
import { JOB_PARAMETER_TYPES, TASK_PARAMETER_TYPES } from "./model";
import { UI_CONTROLS } from "./validate/user-interface";

export type { JsonSchema } from "./json-schema-types";

const ref = (name: string, description?: string): JsonSchema => ({ $ref: `#/definitions/${name}`, ...(description ? { description } : {}) });
const str = (description: string, extra: JsonSchema = {}): JsonSchema => ({ type: "string", description, ...extra });
const list = (description: string, items: JsonSchema, extra: JsonSchema = {}): JsonSchema => ({ type: "array", description, items, minItems: 1, ...extra });
const obj = (description: string, properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: "object",
  description,
  properties,
  ...(required.length > 0 ? { required } : {}),
  additionalProperties: false,
});
const intOrString = (description: string): JsonSchema => ({ description, anyOf: [{ type: "integer" }, { type: "string" }] });
const numberOrString = (description: string): JsonSchema => ({ description, anyOf: [{ type: "number" }, { type: "string" }] });

/** With EXPR, parameter type names are case-insensitive (`int`, `list[string]`). */
function anyCase(words: readonly string[]): string {
  const letters = (w: string) => [...w].map((c) => (/[a-z]/i.test(c) ? `[${c.toUpperCase()}${c.toLowerCase()}]` : c === "[" || c === "]" ? `\\${c}` : c)).join("");
  return `^(?:${words.map(letters).join("|")})$`;
}

const IDENTIFIER = "^[A-Za-z_][A-Za-z0-9_]*$";
const NO_CONTROL = "^[^\\u0000-\\u001f\\u007f-\\u009f]*$";

const action = obj(
  "A command to run. It is run directly (not through a shell); exit code 0 is success.",
  {
    command: str("The program to run, found on the PATH of the action's environment. A format string resolved on the worker (`{{Task.Param.Frame}}`).", { minLength: 1 }),
    args: { type: "array", description: "Arguments passed to the command, each a format string resolved on the worker. With EXPR a list-valued expression is spliced in.", items: { type: "string" } },
    timeout: intOrString("Seconds before the action is canceled and counted as failed. Default: none for onRun and onEnter, 300 for onExit. A format string needs FEATURE_BUNDLE_1."),
    cancelation: obj("How the action is stopped when canceled or timed out. Default: TERMINATE.", {
      mode: {
        description:
          "TERMINATE kills the process tree at once; NOTIFY_THEN_TERMINATE sends SIGTERM, writes cancel_info.json and kills after notifyPeriodInSeconds. A format string needs FEATURE_BUNDLE_1 and WRAP_ACTIONS.",
        type: "string",
        anyOf: [{ enum: ["TERMINATE", "NOTIFY_THEN_TERMINATE"] }, { pattern: "\\{\\{" }],
      },
      notifyPeriodInSeconds: intOrString("Grace period between the notice and the kill, 1–600 seconds. Default 120 for a step's onRun, 30 otherwise."),
    }),
  },
  ["command"],
);

const embeddedFile = obj(
  "A file written into the Session's working directory before each action of its script runs.",
  {
    name: str("Identifier of the file: its path is `{{Task.File.<name>}}` (step script) or `{{Env.File.<name>}}` (environment).", { pattern: IDENTIFIER }),
    type: { type: "string", description: "TEXT (JSON needs EXPR).", enum: ["TEXT", "JSON"] },
    filename: str("Literal file name (no folders). Default: a random name."),
    runnable: { type: "boolean", description: "Make the file executable. Default false." },
    data: { description: "The file's contents, a format string resolved on the worker." },
    endOfLine: { type: "string", description: "Line endings written (FEATURE_BUNDLE_1). AUTO follows the worker's OS.", enum: ["AUTO", "LF", "CRLF"] },
  },
  ["name", "type"],
);

const letList = list("EXPR: ordered `name = expression` bindings, evaluated in order (EXPR only).", { type: "string" });

const environment = obj(
  "An environment: entered before the tasks of a Session, exited after them in reverse order. Needs a script, variables or both.",
  {
    name: str("Name, unique among the template's environments. 1–64 characters (512 with FEATURE_BUNDLE_1).", { minLength: 1, pattern: NO_CONTROL }),
    description: str("Free text for people reading the template."),
    script: obj(
      "Actions run when the environment is entered and exited.",
      {
        let: letList,
        actions: obj("onEnter runs when a Session enters the environment, onExit when it leaves. WRAP_ACTIONS adds the onWrap* hooks.", {
          onEnter: ref("action", "Runs when a Session enters the environment. `openjd_env: NAME=value` lines it prints set variables for later actions."),
          onExit: ref("action", "Runs when a Session leaves the environment, even after a failure. Default timeout 300 s."),
          onWrapEnvEnter: ref("action", "WRAP_ACTIONS: runs instead of each inner environment's onEnter."),
          onWrapTaskRun: ref("action", "WRAP_ACTIONS: runs instead of each task's onRun (`{{WrappedAction.Command}}`, `{{WrappedAction.Args}}`)."),
          onWrapEnvExit: ref("action", "WRAP_ACTIONS: runs instead of each inner environment's onExit."),
        }),
        embeddedFiles: list("Files written before each of this script's actions.", ref("embeddedFile")),
      },
      ["actions"],
    ),
    variables: {
      type: "object",
      description: "Environment variables set while the environment is active; values are format strings resolved on the worker.",
      propertyNames: { type: "string", pattern: IDENTIFIER },
      additionalProperties: { type: "string", maxLength: 2048 },
    },
  },
  ["name"],
);

const fileFilter = obj(
  "A file dialog filter.",
  {
    label: str("The filter's name in the dialog, e.g. 'Images'.", { minLength: 1, maxLength: 64 }),
    patterns: list("Patterns: `*`, `*.*` or `*.ext`.", { type: "string", minLength: 1, maxLength: 20 }),
  },
  ["label", "patterns"],
);

const parameterDefinition = obj(
  "A job parameter: a value the submitter gives (or its default), referenced as `{{Param.<name>}}` and `{{RawParam.<name>}}`. Without a default it is required.",
  {
    name: str("The parameter's name: letters, digits and `_`, not starting with a digit.", { pattern: IDENTIFIER, minLength: 1 }),
    type: {
      description: "STRING, PATH, INT or FLOAT; with EXPR also BOOL, RANGE_EXPR and LIST[...] types (names then case-insensitive).",
      anyOf: [
        { type: "string", enum: JOB_PARAMETER_TYPES },
        { type: "string", pattern: anyCase(JOB_PARAMETER_TYPES) },
      ],
    },
    description: str("Shown as the field's help text in the submit form."),
    default: { description: "The value used when the submitter gives none. It must satisfy the constraints." },
    allowedValues: list("The only values accepted (a drop-down list in the submit form).", { type: ["string", "number", "boolean"] }),
    minLength: { type: "integer", minimum: 0, description: "STRING/PATH: fewest characters; LIST: fewest items." },
    maxLength: { type: "integer", minimum: 0, description: "STRING/PATH: most characters; LIST: most items." },
    minValue: numberOrString("INT/FLOAT: smallest value accepted."),
    maxValue: numberOrString("INT/FLOAT: largest value accepted."),
    objectType: { type: "string", enum: ["FILE", "DIRECTORY"], description: "PATH: whether the path names a file or a folder. Default DIRECTORY." },
    dataFlow: { type: "string", enum: ["NONE", "IN", "OUT", "INOUT"], description: "PATH: whether the job reads (IN), writes (OUT) or both. Default NONE." },
    item: ref("itemConstraints", "LIST types (EXPR): constraints on each item."),
    userInterface: obj("Hints for the submit form.", {
      control: { type: "string", enum: UI_CONTROLS, description: "The form control. Default: from the type, allowedValues, objectType and dataFlow." },
      label: str("The field's label; default: the parameter's name. 1–64 characters.", { minLength: 1, maxLength: 64 }),
      groupLabel: str("Fields with the same groupLabel are shown together in one section.", { minLength: 1, maxLength: 64 }),
      decimals: { type: "integer", description: "FLOAT with SPIN_BOX: decimal places shown." },
      singleStepDelta: { type: "number", exclusiveMinimum: 0, description: "SPIN_BOX: how much one step changes the value." },
      fileFilters: list("CHOOSE_INPUT_FILE / CHOOSE_OUTPUT_FILE: file dialog filters (at most 20).", ref("fileFilter"), { maxItems: 20 }),
      fileFilterDefault: ref("fileFilter", "The filter selected when the dialog opens."),
    }),
  },
  ["name", "type"],
);

const itemConstraints: JsonSchema = obj("Constraints on each item of a LIST parameter (EXPR).", {
  allowedValues: list("The only item values accepted.", { type: ["string", "number", "boolean"] }),
  minLength: { type: "integer", minimum: 0, description: "Fewest characters (or items, for nested lists) per item." },
  maxLength: { type: "integer", minimum: 0, description: "Most characters (or items, for nested lists) per item." },
  minValue: numberOrString("Smallest item value."),
  maxValue: numberOrString("Largest item value."),
  item: { $ref: "#/definitions/itemConstraints", description: "LIST[LIST[INT]]: constraints on the inner items." },
});

const taskParameter = obj(
  "A task parameter: one task runs per value (or combination of values), referenced as `{{Task.Param.<name>}}`.",
  {
    name: str("The parameter's name.", { pattern: IDENTIFIER, minLength: 1 }),
    type: {
      description: "INT, FLOAT, STRING or PATH; CHUNK[INT] with TASK_CHUNKING.",
      anyOf: [
        { type: "string", enum: TASK_PARAMETER_TYPES },
        { type: "string", pattern: anyCase(TASK_PARAMETER_TYPES) },
      ],
    },
    range: {
      description: 'The values: a list (1–1024 items, format strings allowed) or, for INT and CHUNK[INT], a range expression such as "1-100:2" or "{{Param.Frames}}".',
      anyOf: [
        { type: "array", minItems: 1, items: { type: ["string", "number"] } },
        { type: "string", minLength: 1 },
      ],
    },
    chunks: obj(
      "CHUNK[INT] (TASK_CHUNKING): how values are grouped into chunks run as one task.",
      {
        defaultTaskCount: intOrString("Values per chunk (at least 1); a format string is resolved when the job is created."),
        targetRuntimeSeconds: intOrString("If above 0, the scheduler may adapt chunk sizes toward this duration."),
        rangeConstraint: { type: "string", enum: ["CONTIGUOUS", "NONCONTIGUOUS"], description: "CONTIGUOUS chunks are one run `a-b`; NONCONTIGUOUS may skip values." },
      },
      ["defaultTaskCount", "rangeConstraint"],
    ),
  },
  ["name", "type", "range"],
);

const capabilityName = (prefix: "amount" | "attr") => str(`Capability name: \`${prefix}.worker.…\` for the standard ones, or a custom \`${prefix}.<scope>.<name>\`.`, { minLength: 1, maxLength: 100 });

const hostRequirements = obj("What a worker must have to run the step's tasks. At least one of amounts and attributes; 50 requirements at most.", {
  amounts: list(
    "Amounts the worker must have (and that are reserved for the Session).",
    obj(
      "An amount requirement: at least one of min and max.",
      {
        name: { ...capabilityName("amount"), examples: ["amount.worker.vcpu", "amount.worker.memory", "amount.worker.gpu", "amount.worker.gpu.memory", "amount.worker.disk.scratch"] },
        min: numberOrString("The least the worker must have (≥ 0). A format string needs FEATURE_BUNDLE_1."),
        max: numberOrString("The most the worker may have (> 0)."),
      },
      ["name"],
    ),
  ),
  attributes: list(
    "Attributes the worker must have.",
    obj(
      "An attribute requirement: at least one of anyOf and allOf.",
      {
        name: { ...capabilityName("attr"), examples: ["attr.worker.os.family", "attr.worker.cpu.arch"] },
        anyOf: list("The worker has at least one of these values.", { type: "string", examples: ["linux", "windows", "macos", "x86_64", "arm64"] }),
        allOf: list("The worker has all of these values.", { type: "string" }),
      },
      ["name"],
    ),
  ),
});

const simpleAction = (interpreter: string) =>
  obj(
    `FEATURE_BUNDLE_1: run \`script\` with ${interpreter}, as an embedded file. Replaces \`script\`.`,
    {
      let: letList,
      script: str("The script's text, a format string resolved on the worker.", { minLength: 1 }),
      args: { type: "array", description: "Arguments after the script file.", items: { type: "string" } },
      timeout: intOrString("Seconds before the task is canceled and counted as failed."),
      cancelation: ref("cancelation", "How the task is stopped when canceled."),
    },
    ["script"],
  );

/** TASK_DEPENDENCIES: `{name, range}` entries selecting upstream tasks by their parameter values. */
const subspaceEntries = list(
  "Upstream task parameters and which of their values; a task matches when it has one of the values of every entry.",
  obj(
    "One upstream task parameter and its values.",
    {
      name: str("A task parameter of the upstream step.", { pattern: IDENTIFIER }),
      range: {
        description:
          'A format string evaluated for each task of this step (`{{Task.Param.Frame}}`, a range expression `1-5`, `{{Step.Sim.ParameterSpace.Frame.Range}}`), or a list of values (`[0]`, `["{{Task.Param.Frame - 1}}"]`).',
        anyOf: [{ type: "string" }, { type: "array", minItems: 1, items: { anyOf: [{ type: "number" }, { type: "string" }] } }],
      },
    },
    ["name", "range"],
  ),
);

const step = obj(
  "A step: a command run once per task, for every value (or combination) of its task parameters.",
  {
    name: str("The step's name, unique in the template; other steps depend on it by name.", { minLength: 1, pattern: NO_CONTROL }),
    description: str("Free text for people reading the template."),
    let: letList,
    dependencies: list(
      "Steps whose tasks must all succeed before this step's tasks start (with TASK_DEPENDENCIES: some of their tasks).",
      obj(
        "A dependency.",
        {
          dependsOn: str("The name of another step (or, with a dependsOnSubspace, of this step itself)."),
          dependsOnSubspace: {
            description:
              "TASK_DEPENDENCIES: wait only for the upstream step's tasks in this subspace, evaluated per task. A list means allOf; `anyOf` waits for the first matched task to succeed. Values outside the upstream step's parameter space are ignored.",
            anyOf: [subspaceEntries, obj("Every matched task (allOf).", { allOf: subspaceEntries }, ["allOf"]), obj("At least one matched task (anyOf).", { anyOf: subspaceEntries }, ["anyOf"])],
          },
        },
        ["dependsOn"],
      ),
    ),
    stepEnvironments: list("Environments entered (after the job's) for this step's tasks.", ref("environment")),
    hostRequirements: ref("hostRequirements"),
    parameterSpace: obj(
      "The step's task parameters; without it the step has one task.",
      {
        taskParameterDefinitions: list("1–16 task parameters.", ref("taskParameter"), { maxItems: 16 }),
        combination: str("How the parameters combine: `A * B` is every pair, `(A, B)` pairs values in order. Default: the product of all."),
      },
      ["taskParameterDefinitions"],
    ),
    script: obj(
      "What each task runs.",
      {
        let: letList,
        actions: obj("The task's action.", { onRun: ref("action", "Runs once per task. `openjd_progress: 50` and `openjd_status: text` lines report progress.") }, ["onRun"]),
        embeddedFiles: list("Files written before each task runs.", ref("embeddedFile")),
      },
      ["actions"],
    ),
    bash: simpleAction("bash"),
    cmd: simpleAction("cmd /C"),
    node: simpleAction("node"),
    powershell: simpleAction("powershell -File"),
    python: simpleAction("python"),
  },
  ["name"],
);

const DEFINITIONS: Record<string, JsonSchema> = {
  action,
  cancelation: action.properties!.cancelation!,
  embeddedFile,
  environment,
  fileFilter,
  parameterDefinition,
  itemConstraints,
  taskParameter,
  hostRequirements,
  step,
};

const common = {
  $schema: str("The URL of this schema, for editors. Ignored by OpenJD."),
  extensions: list("Extensions this document uses; a template using an extension's feature must list it.", { type: "string", enum: KNOWN_EXTENSIONS }),
  parameterDefinitions: list("Job parameters (at most 50; 200 with FEATURE_BUNDLE_1 in a job template).", ref("parameterDefinition"), { maxItems: 200 }),
};

export const JOB_TEMPLATE_SCHEMA: JsonSchema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  title: "Open Job Description job template (2023-09)",
  ...obj(
    "An OpenJD job template: parameters, environments and the steps a job runs.",
    {
      specificationVersion: { type: "string", const: "jobtemplate-2023-09", enum: ["jobtemplate-2023-09"], description: "The template format: `jobtemplate-2023-09`." },
      ...common,
      name: str("The job's name, a format string resolved when the job is created (`Render {{Param.Shot}}`). 1–128 characters after resolution.", { minLength: 1 }),
      description: str("Free text for people reading the template."),
      jobEnvironments: list("Environments entered before any task of the job, in order.", ref("environment")),
      steps: list("The job's steps; at least one.", ref("step")),
    },
    ["specificationVersion", "name", "steps"],
  ),
  definitions: DEFINITIONS,
};

export const ENVIRONMENT_TEMPLATE_SCHEMA: JsonSchema = {
  $schema: "http://json-schema.org/draft-07/schema#",
  title: "Open Job Description environment template (2023-09)",
  ...obj(
    "An OpenJD environment template: an environment applied around submitted jobs (outside their own environments).",
    {
      specificationVersion: { type: "string", const: "environment-2023-09", enum: ["environment-2023-09"], description: "The template format: `environment-2023-09`." },
      ...common,
      environment: ref("environment"),
    },
    ["specificationVersion", "environment"],
  ),
  definitions: DEFINITIONS,
};

/** The published schemas by file name (served at /schema/<name>). */
export const TEMPLATE_SCHEMAS: Readonly<Record<string, JsonSchema>> = {
  "jobtemplate-2023-09.json": JOB_TEMPLATE_SCHEMA,
  "environment-2023-09.json": ENVIRONMENT_TEMPLATE_SCHEMA,
};

/** The schema for a document's text: the environment schema when it says so, else the job schema. */
export function schemaForText(text: string): JsonSchema {
  return /["']?specificationVersion["']?\s*:\s*["']?environment-2023-09/.test(text) ? ENVIRONMENT_TEMPLATE_SCHEMA : JOB_TEMPLATE_SCHEMA;
}

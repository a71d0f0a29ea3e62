import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { rawOf } from "../store/store-test-support";
import { testStore } from "../store/engines-test-support";
import { MAX_BUNDLE_BYTES, readJobBundle, readZipBundle } from "./job-bundle";
import { submitJob } from "./submit-job";
import { makeZip, type ZipFile } from "./zip-test-support";

const TEMPLATE = `specificationVersion: jobtemplate-2023-09
name: "Shot {{Param.Shot}}"
parameterDefinitions:
- name: Shot
  type: STRING
- name: Frames
  type: INT
  default: 2
steps:
- name: Render
  parameterSpace:
    taskParameterDefinitions:
    - name: Frame
      type: INT
      range: "1-{{Param.Frames}}"
  script:
    actions:
      onRun:
        command: echo
`;

const DEADLINE_VALUES = `parameterValues:
- name: Shot
  value: sh010
- name: Frames
  value: 5
- name: deadline:priority
  value: 70
- name: deadline:targetTaskRunStatus
  value: SUSPENDED
- name: deadline:maxWorkerCount
  value: 4
`;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "loom-bundle-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function folder(files: Record<string, string>): string {
  const path = join(dir, "bundle");
  mkdirSync(path, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(path, name), text);
  return path;
}

function zipFile(files: readonly ZipFile[]): string {
  const path = join(dir, "bundle.zip");
  writeFileSync(path, makeZip(files));
  return path;
}

const plain = (values: Record<string, unknown>) => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, (v as { value: unknown }).value]));

describe("readJobBundle", () => {
  it("reads a folder with Deadline-style parameter values and submits it", async () => {
    const path = folder({ "template.yaml": TEMPLATE, "parameter_values.yaml": DEADLINE_VALUES });
    const result = await readJobBundle(path);
    if (!result.ok) throw new Error(result.error.message);
    const { bundle } = result;
    expect(bundle.template).toEqual({ text: TEMPLATE, format: "yaml" });
    expect(bundle.templateDir).toBe(path);
    expect(plain(bundle.parameterValues)).toEqual({ Shot: "sh010", Frames: 5n });
    expect(bundle.settings).toEqual({ priority: 70, initialState: "SUSPENDED" });
    expect(bundle.ignored).toEqual(["deadline:maxWorkerCount"]);

    const store = await testStore();
    const submitted = await submitJob(store, { ...bundle, workingDir: dir, now: 1 });
    expect(submitted).toMatchObject({ ok: true, taskCount: 5 });
    // Flags read back as 1/0 on either engine.
    expect((await rawOf(store).all("SELECT * FROM jobs"))[0]).toMatchObject({ name: "Shot sh010", priority: 70, suspended: 1 });
  });

  it("accepts a plain mapping of parameter values in JSON, and no values at all", async () => {
    const withValues = await readJobBundle(folder({ "template.yaml": TEMPLATE, "parameter_values.json": '{"Shot": "sh020", "Frames": "3"}' }));
    expect(withValues.ok && plain(withValues.bundle.parameterValues)).toEqual({ Shot: "sh020", Frames: "3" });
    rmSync(join(dir, "bundle"), { recursive: true });
    const without = await readJobBundle(folder({ "template.json": '{"name": "x"}' }));
    expect(without).toMatchObject({ ok: true, bundle: { template: { format: "json" }, parameterValues: {}, settings: {} } });
  });

  it("reads a zip built in memory, deflated and stored entries alike", async () => {
    const result = await readJobBundle(
      zipFile([
        { name: "template.yaml", data: TEMPLATE },
        { name: "parameter_values.json", data: '{"parameterValues": [{"name": "Shot", "value": "sh030"}]}', method: 0 },
        { name: "assets/readme.txt", data: "not read" },
      ]),
    );
    if (!result.ok) throw new Error(result.error.message);
    expect(result.bundle.template.text).toBe(TEMPLATE);
    expect(result.bundle.templateDir).toBeNull();
    expect(plain(result.bundle.parameterValues)).toEqual({ Shot: "sh030" });
  });

  it("looks inside the single top folder of a zip", () => {
    const result = readZipBundle(
      makeZip([
        { name: "shot/template.json", data: '{"a": 1}' },
        { name: "shot/parameter_values.yaml", data: "Shot: x\n" },
      ]),
      "up.zip",
    );
    expect(result).toMatchObject({ ok: true, bundle: { template: { text: '{"a": 1}', format: "json" } } });
  });

  it.each([["../evil.yaml"], ["bundle/../../evil.yaml"], ["/etc/passwd"], ["C:\\Windows\\evil.yaml"], ["..\\evil.yaml"]])("refuses a zip holding the escaping name %s", (name) => {
    const result = readZipBundle(
      makeZip([
        { name: "template.yaml", data: TEMPLATE },
        { name, data: "x" },
      ]),
      "up.zip",
    );
    expect(result).toMatchObject({ ok: false, error: { file: "up.zip", message: expect.stringContaining("leads outside the bundle") } });
  });

  it.each([
    ["no template", [{ name: "parameter_values.yaml", data: "Shot: x\n" }], "holds no template.yaml or template.json"],
    [
      "two templates",
      [
        { name: "template.yaml", data: TEMPLATE },
        { name: "template.json", data: "{}" },
      ],
      "holds both template.yaml and template.json",
    ],
    ["an unsupported method", [{ name: "template.yaml", data: TEMPLATE, method: 12 }], "compression method 12"],
    ["a size larger than recorded", [{ name: "template.yaml", data: TEMPLATE, size: 10 }], "could not be inflated"],
    ["a stored size mismatch", [{ name: "template.yaml", data: TEMPLATE, method: 0, size: 10 }], "damaged"],
    ["more than the size cap", [{ name: "template.yaml", data: TEMPLATE, size: MAX_BUNDLE_BYTES + 1 }], "unpacks to more than"],
  ])("refuses a zip with %s", (_what, files, message) => {
    expect(readZipBundle(makeZip(files), "up.zip")).toMatchObject({ ok: false, error: { message: expect.stringContaining(message) } });
  });

  it("refuses bytes that are not a zip", () => {
    expect(readZipBundle(Buffer.from("PK but not really"), "up.zip")).toMatchObject({ ok: false, error: { message: "'up.zip' is not a zip file (no end of central directory record)" } });
  });

  it("locates problems in the parameter values file", async () => {
    const values = "parameterValues:\n- name: Shot\n  value: a\n- name: Shot\n  value: b\n";
    const result = await readJobBundle(folder({ "template.yaml": TEMPLATE, "parameter_values.yaml": values }));
    expect(result).toMatchObject({
      ok: false,
      error: { file: join(dir, "bundle", "parameter_values.yaml"), path: "parameterValues[1].name", line: 4, column: 9, message: "parameter Shot is given more than once" },
    });
    const broken = await readJobBundle(
      zipFile([
        { name: "template.yaml", data: TEMPLATE },
        { name: "parameter_values.yaml", data: "Shot: [unclosed\n" },
      ]),
    );
    expect(broken).toMatchObject({ ok: false, error: { file: `${join(dir, "bundle.zip")}!/parameter_values.yaml`, line: expect.any(Number) } });
  });

  it("refuses a missing path, a plain file and a bad Deadline setting", async () => {
    expect(await readJobBundle(join(dir, "nope"))).toMatchObject({ ok: false, error: { message: expect.stringContaining("does not exist") } });
    writeFileSync(join(dir, "template.yaml"), TEMPLATE);
    expect(await readJobBundle(join(dir, "template.yaml"))).toMatchObject({ ok: false, error: { message: expect.stringContaining("neither a folder nor a .zip") } });
    const bad = await readJobBundle(folder({ "template.yaml": TEMPLATE, "parameter_values.yaml": "deadline:priority: high\n" }));
    expect(bad).toMatchObject({ ok: false, error: { path: "deadline:priority", line: 1, message: "deadline:priority must be a whole number" } });
  });

  it("reads Loom's own retry settings, and refuses a loom: name that is not one", async () => {
    const good = await readJobBundle(folder({ "template.yaml": TEMPLATE, "parameter_values.yaml": "Shot: a\nloom:retryDelaySeconds: 30\nloom:maxWorkerFailures: 0\n" }));
    expect(good).toMatchObject({ ok: true, bundle: { settings: { retryDelaySeconds: 30, maxWorkerFailures: 0 }, parameterValues: { Shot: expect.anything() } } });
    const typo = await readJobBundle(folder({ "template.yaml": TEMPLATE, "parameter_values.yaml": "Shot: a\nloom:retryDelay: 30\n" }));
    expect(typo).toMatchObject({ ok: false, error: { path: "loom:retryDelay", line: 2, message: expect.stringContaining("not a Loom setting") } });
  });
});

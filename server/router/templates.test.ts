/**
 * The template library through createCaller against a real migrated SQLite: save with located
 * errors counted, refusal of unreadable text, replace by name, bundle import with its parameter
 * values, delete.
 */
import { crc32 } from "node:zlib";
import { describe, expect, it } from "vitest";
import { testFarm } from "../services/farm-test-support";
import { appRouter } from "./index";
import { createCallerFactory } from "./trpc";
import { contextAs } from "../auth/test-principals";

const JOB =
  "specificationVersion: jobtemplate-2023-09\nname: Render\nparameterDefinitions:\n- {name: Frames, type: STRING, default: 1-3}\nsteps:\n- name: S\n  script:\n    actions:\n      onRun: {command: echo, args: [hi]}\n";
const ENV = '{"specificationVersion": "environment-2023-09", "environment": {"name": "E", "variables": {"A": "1"}}}';

async function api() {
  const t = await testFarm();
  return { t, api: createCallerFactory(appRouter)(await contextAs(t.farm, "admin")) };
}

/** A zip of stored (uncompressed) entries: enough for the bundle reader. */
function storedZip(files: Record<string, string>): Buffer {
  const parts: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const [fileName, text] of Object.entries(files)) {
    const data = Buffer.from(text);
    const name = Buffer.from(fileName);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt32LE(crc32(data), 16);
    entry.writeUInt32LE(data.length, 20);
    entry.writeUInt32LE(data.length, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    parts.push(local, name, data);
    central.push(entry, name);
    offset += 30 + name.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(central.length / 2, 8);
  end.writeUInt16LE(central.length / 2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...parts, directory, end]);
}

describe("templates", () => {
  it("saves job and environment templates, lists them newest first and opens one", async () => {
    const { t, api: caller } = await api();
    const job = await caller.templates.save({ name: "Render", text: JOB, format: "yaml" });
    expect(job).toMatchObject({ name: "Render", kind: "job", errorCount: 0, replaced: false });
    t.clock.now += 1000;
    const env = await caller.templates.save({ name: " Env vars ", text: ENV, format: "json" });
    expect(env).toMatchObject({ name: "Env vars", kind: "environment", errorCount: 0 });
    const rows = await caller.templates.list();
    expect(rows.map((r) => [r.name, r.kind, r.format])).toEqual([
      ["Env vars", "environment", "json"],
      ["Render", "job", "yaml"],
    ]);
    const opened = await caller.templates.get({ id: job.id });
    expect(opened).toMatchObject({ text: JOB, format: "yaml", errors: [], parameterValues: {} });
  });

  it("keeps a template with validation errors, counted and located", async () => {
    const { api: caller } = await api();
    const broken = JOB.replace("command: echo", "command: ''").replace("name: S", "name: S\n  bogus: 1");
    const saved = await caller.templates.save({ name: "Broken", text: broken, format: "yaml" });
    expect(saved.errorCount).toBe(2);
    const opened = await caller.templates.get({ id: saved.id });
    expect(opened.errors.map((e) => [e.path, e.line])).toEqual([
      ["steps[0].bogus", 7],
      ["steps[0].script.actions.onRun.command", 10],
    ]);
  });

  it("refuses text that is not a readable template, with the location of the problem", async () => {
    const { api: caller } = await api();
    await expect(caller.templates.save({ name: "x", text: "steps: [\n", format: "yaml" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/not a readable .*\(2:1\)/) });
    await expect(caller.templates.save({ name: "x", text: "specificationVersion: jobtemplate-2099\n", format: "yaml" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.templates.save({ name: "  ", text: JOB, format: "yaml" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await caller.templates.list()).toEqual([]);
  });

  it("replaces the template of the same name only when told which version it replaces", async () => {
    const { api: caller } = await api();
    const first = await caller.templates.save({ name: "Render", text: JOB, format: "yaml" });
    const v2 = JOB.replace("name: Render", "name: Render v2");
    // Unasked, a save over the name is refused with what it met, and changes nothing.
    await expect(caller.templates.save({ name: "Render", text: v2, format: "yaml" })).rejects.toMatchObject({
      code: "CONFLICT",
      message: expect.stringMatching(/^a template named 'Render' exists, saved by test-admin on 2023-11-14 22:13:20 UTC/),
    });
    expect((await caller.templates.get({ id: first.id })).text).toBe(JOB);
    const second = await caller.templates.save({ name: "Render", text: v2, format: "yaml", replace: { id: first.id, updatedAt: first.updatedAt } });
    expect(second).toMatchObject({ id: first.id, replaced: true });
    expect(second.updatedAt).toBeGreaterThan(first.updatedAt);
    expect((await caller.templates.list()).length).toBe(1);
    expect((await caller.templates.get({ id: first.id })).text).toContain("Render v2");
    // A second tab still holding the first version cannot clobber the second.
    const stale = caller.templates.save({ name: "Render", text: JOB, format: "yaml", replace: { id: first.id, updatedAt: first.updatedAt } });
    await expect(stale).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringContaining("(it changed since you asked)") });
    expect((await caller.templates.get({ id: first.id })).text).toContain("Render v2");
    await expect(caller.templates.save({ name: "Render", text: JOB, format: "yaml", replace: { id: first.id, updatedAt: second.updatedAt }, keepBoth: true })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
  });

  it("keeps both under the first free name, for anyone who may submit", async () => {
    const { t, api: caller } = await api();
    const ana = createCallerFactory(appRouter)(await contextAs(t.farm, "artist", "ana"));
    const ben = createCallerFactory(appRouter)(await contextAs(t.farm, "artist", "ben"));
    const first = await ana.templates.save({ name: "Render", text: JOB, format: "yaml" });
    await caller.templates.save({ name: "Render (2)", text: JOB, format: "yaml" });
    const kept = await ben.templates.save({ name: "Render", text: JOB, format: "yaml", keepBoth: true });
    expect(kept).toMatchObject({ name: "Render (3)", replaced: false });
    expect(kept.id).not.toBe(first.id);
    expect((await ben.templates.list()).map((r) => r.name).sort()).toEqual(["Render", "Render (2)", "Render (3)"]);
  });

  it("lets the owner, wranglers and admins replace an entry, and refuses another artist", async () => {
    const { t } = await api();
    const as = async (role: "artist" | "wrangler" | "admin", name: string) => createCallerFactory(appRouter)(await contextAs(t.farm, role, name));
    const ana = await as("artist", "ana");
    let saved = await ana.templates.save({ name: "Shot", text: JOB, format: "yaml" });
    // Ben is told it exists and that he may not replace it (the portal then offers Keep both only).
    const ben = await as("artist", "ben");
    const met = await ben.templates.save({ name: "Shot", text: JOB, format: "yaml" }).catch((e: unknown) => e);
    expect(met).toMatchObject({ code: "CONFLICT", cause: { details: { existing: { id: saved.id, name: "Shot", ownerName: "ana", updatedAt: saved.updatedAt, mayReplace: false } } } });
    await expect(ben.templates.save({ name: "Shot", text: JOB, format: "yaml", replace: { id: saved.id, updatedAt: saved.updatedAt } })).rejects.toMatchObject({ code: "FORBIDDEN" });
    for (const who of [ana, await as("wrangler", "wes"), await as("admin", "ada")]) {
      saved = await who.templates.save({ name: "Shot", text: JOB, format: "yaml", replace: { id: saved.id, updatedAt: saved.updatedAt } });
      expect(saved.replaced).toBe(true);
    }
  });

  it("opens a bundle for /submit, as a zip or a folder's files, keeping nothing", async () => {
    const { api: caller } = await api();
    const values = "parameterValues:\n- {name: Frames, value: 4-8}\n- {name: 'deadline:priority', value: 60}\n";
    const zip = storedZip({ "shot/template.yaml": JOB, "shot/parameter_values.yaml": values });
    const fromZip = await caller.templates.readBundle({ fileName: "shot.zip", base64: zip.toString("base64") });
    expect(fromZip).toEqual({ source: "shot.zip", template: { text: JOB, format: "yaml" }, parameterValues: { Frames: "4-8" } });
    const fromFolder = await caller.templates.readBundle({ folderName: "shot", files: { "template.yaml": JOB, "parameter_values.yaml": values } });
    expect(fromFolder).toEqual({ ...fromZip, source: "shot" });
    expect(await caller.templates.list()).toEqual([]);
    // Located errors, in the file they are in.
    await expect(caller.templates.readBundle({ folderName: "shot", files: { "template.yaml": JOB, "parameter_values.yaml": "parameterValues:\n- {name: Frames}\n" } })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "shot/parameter_values.yaml (2:3): parameter Frames has no value",
    });
    await expect(caller.templates.readBundle({ folderName: "shot", files: { "parameter_values.yaml": values } })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "shot: 'shot' holds no template.yaml or template.json",
    });
    await expect(caller.templates.readBundle({ fileName: "shot.zip", base64: Buffer.from(JOB).toString("base64") })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringContaining("is not a zip file"),
    });
    // Only the bundle's own files are taken.
    await expect(caller.templates.readBundle({ folderName: "shot", files: { "template.yaml": JOB, "../etc/passwd": "x" } as never })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("asks before a bundle replaces an entry of the same name too", async () => {
    const { api: caller } = await api();
    const zip = storedZip({ "template.yaml": JOB });
    const first = await caller.templates.importBundle({ fileName: "shot.zip", base64: zip.toString("base64") });
    await expect(caller.templates.importBundle({ fileName: "shot.zip", base64: zip.toString("base64") })).rejects.toMatchObject({ code: "CONFLICT" });
    expect(await caller.templates.importBundle({ fileName: "shot.zip", base64: zip.toString("base64"), keepBoth: true })).toMatchObject({ name: "Render (2)" });
    expect(await caller.templates.importBundle({ fileName: "shot.zip", base64: zip.toString("base64"), replace: { id: first.id, updatedAt: first.updatedAt } })).toMatchObject({
      id: first.id,
      replaced: true,
    });
  });

  it("imports a job bundle with its parameter values, named after the job", async () => {
    const { api: caller } = await api();
    const zip = storedZip({ "shot/template.yaml": JOB, "shot/parameter_values.yaml": "parameterValues:\n- {name: Frames, value: 1-100}\n- {name: 'deadline:priority', value: 70}\n" });
    const saved = await caller.templates.importBundle({ fileName: "shot.zip", base64: zip.toString("base64") });
    expect(saved).toMatchObject({ name: "Render", kind: "job", errorCount: 0 });
    const opened = await caller.templates.get({ id: saved.id });
    expect(opened.parameterValues).toEqual({ Frames: "1-100" });
    expect(opened.parameterValueCount).toBe(1);
    const bad = storedZip({ "readme.txt": "no template" });
    await expect(caller.templates.importBundle({ fileName: "bad.zip", base64: bad.toString("base64") })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/no template\.yaml/),
    });
  });

  it("deletes, and says when there is nothing to delete", async () => {
    const { api: caller } = await api();
    const saved = await caller.templates.save({ name: "Render", text: JOB, format: "yaml" });
    expect(await caller.templates.delete({ id: saved.id })).toEqual({ deleted: saved.id });
    await expect(caller.templates.get({ id: saved.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(caller.templates.delete({ id: saved.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

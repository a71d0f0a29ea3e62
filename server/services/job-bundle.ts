/**
 * Reading a job bundle (the AWS Deadline Cloud layout): a folder or a .zip holding
 * `template.yaml` or `template.json` and optionally `parameter_values.yaml|json`, either
 * `{parameterValues: [{name, value}]}` or a plain `{Name: value}` mapping. The `deadline:*`
 * entries a Deadline bundle carries become submission settings. Nothing is validated as OpenJD
 * here (submitJob does that) and a zip is read in memory, never extracted to disk.
 *
 * The zip reader is minimal on purpose: the central directory, stored and deflated entries only,
 * no ZIP64, no encryption, names that could leave the bundle refused, 50 MB in all.
 */
import { readFile, stat } from "node:fs/promises";
import { join, resolve } from "node:path";
import { crc32, inflateRawSync } from "node:zlib";
import { detectFormat, locateErrors, type ParameterInput, parseSource, type PathSegment, type SourceNode } from "../../lib/openjd";
import type { SubmitSettings, TemplateText } from "./submit-job";

export const MAX_BUNDLE_BYTES = 50 * 1024 * 1024;

export interface JobBundle {
  template: TemplateText;
  parameterValues: Record<string, ParameterInput>;
  /** The bundle folder (relative PATH defaults join it); null for a zip, which has no folder on disk. */
  templateDir: string | null;
  /**
   * From `deadline:priority`, `deadline:targetTaskRunStatus`, `deadline:maxFailedTasksCount`,
   * `deadline:maxRetriesPerTask`, and Loom's own `loom:retryDelaySeconds`, `loom:maxWorkerFailures`.
   */
  settings: SubmitSettings;
  /** Other `deadline:*` values (queue settings with no meaning here), left out of parameterValues. */
  ignored: string[];
}

export interface BundleError {
  /** The file the problem is in (`bundle.zip!/template.yaml` inside a zip). */
  file: string;
  path: string;
  line: number | null;
  column: number | null;
  message: string;
}

export type JobBundleResult = { ok: true; bundle: JobBundle } | { ok: false; error: BundleError };

const TEMPLATE_NAMES = ["template.yaml", "template.json"] as const;
const VALUES_NAMES = ["parameter_values.yaml", "parameter_values.json"] as const;
const UTF8 = new TextDecoder("utf-8", { fatal: true });

class BundleProblem extends Error {
  constructor(readonly error: BundleError) {
    super(error.message);
  }
}

const problem = (file: string, message: string): BundleProblem => new BundleProblem({ file, path: "", line: null, column: null, message });

/** A folder or a .zip file, by what `path` is. */
export async function readJobBundle(path: string): Promise<JobBundleResult> {
  try {
    const stats = await stat(path).catch(() => {
      throw problem(path, `'${path}' does not exist`);
    });
    if (stats.isDirectory()) return await readFolder(path);
    if (!stats.isFile() || !path.toLowerCase().endsWith(".zip")) throw problem(path, `'${path}' is neither a folder nor a .zip file`);
    if (stats.size > MAX_BUNDLE_BYTES) throw problem(path, `'${path}' is ${stats.size} bytes; bundles are limited to ${MAX_BUNDLE_BYTES} bytes`);
    return readZipBundle(await readFile(path), path);
  } catch (error) {
    if (error instanceof BundleProblem) return { ok: false, error: error.error };
    throw error;
  }
}

/** A zip held in memory (an upload); `label` names it in errors. */
export function readZipBundle(bytes: Uint8Array, label = "bundle.zip"): JobBundleResult {
  try {
    if (bytes.length > MAX_BUNDLE_BYTES) throw problem(label, `'${label}' is ${bytes.length} bytes; bundles are limited to ${MAX_BUNDLE_BYTES} bytes`);
    const zip = new ZipReader(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), label);
    const root = bundleRoot(zip.names());
    const lookup = (name: string) => (zip.has(root + name) ? name : null);
    const read = (name: string) => ({ text: zip.text(root + name), file: `${label}!/${root}${name}` });
    return { ok: true, bundle: assemble(lookup, read, label, null) };
  } catch (error) {
    if (error instanceof BundleProblem) return { ok: false, error: error.error };
    throw error;
  }
}

/**
 * A bundle folder's files as a browser sent them (a folder chosen with `<input webkitdirectory>`):
 * bundle file name → text; other names are ignored. `label` names the folder in errors.
 */
export function readBundleTexts(files: Readonly<Record<string, string>>, label: string): JobBundleResult {
  try {
    const present = new Map<string, string>();
    for (const name of [...TEMPLATE_NAMES, ...VALUES_NAMES]) if (Object.hasOwn(files, name)) present.set(name, files[name]!);
    const lookup = (name: string) => (present.has(name) ? name : null);
    const read = (name: string) => ({ text: present.get(name)!, file: `${label}/${name}` });
    return { ok: true, bundle: assemble(lookup, read, label, null) };
  } catch (error) {
    if (error instanceof BundleProblem) return { ok: false, error: error.error };
    throw error;
  }
}

async function readFolder(folder: string): Promise<JobBundleResult> {
  const present = new Map<string, string>();
  for (const name of [...TEMPLATE_NAMES, ...VALUES_NAMES]) {
    const file = join(folder, name);
    const stats = await stat(file).catch(() => null);
    if (!stats?.isFile()) continue;
    if (stats.size > MAX_BUNDLE_BYTES) throw problem(file, `'${file}' is ${stats.size} bytes; bundles are limited to ${MAX_BUNDLE_BYTES} bytes`);
    present.set(name, decode(await readFile(file), file));
  }
  const lookup = (name: string) => (present.has(name) ? name : null);
  const read = (name: string) => ({ text: present.get(name)!, file: join(folder, name) });
  return { ok: true, bundle: assemble(lookup, read, folder, resolve(folder)) };
}

/** Zips made by "compress this folder" put everything under one top folder; look there too. */
function bundleRoot(names: readonly string[]): string {
  if (TEMPLATE_NAMES.some((n) => names.includes(n))) return "";
  const tops = new Set(names.map((n) => n.split("/")[0]));
  const [top] = tops;
  return tops.size === 1 && names.every((n) => n.includes("/")) ? `${top}/` : "";
}

function assemble(lookup: (name: string) => string | null, read: (name: string) => { text: string; file: string }, label: string, templateDir: string | null): JobBundle {
  const templateNames = TEMPLATE_NAMES.filter((n) => lookup(n) !== null);
  if (templateNames.length === 0) throw problem(label, `'${label}' holds no template.yaml or template.json`);
  if (templateNames.length > 1) throw problem(label, `'${label}' holds both template.yaml and template.json; keep one`);
  const valuesNames = VALUES_NAMES.filter((n) => lookup(n) !== null);
  if (valuesNames.length > 1) throw problem(label, `'${label}' holds both parameter_values.yaml and parameter_values.json; keep one`);
  const templateName = templateNames[0]!;
  const template: TemplateText = { text: read(templateName).text, format: detectFormat(templateName)! };
  const valuesName = valuesNames[0];
  const values = valuesName ? parameterValues(read(valuesName), detectFormat(valuesName)!) : { parameterValues: {}, settings: {}, ignored: [] };
  return { template, templateDir, ...values };
}

type Values = Pick<JobBundle, "parameterValues" | "settings" | "ignored">;

function parameterValues({ text, file }: { text: string; file: string }, format: "yaml" | "json"): Values {
  const source = parseSource(text, format);
  const fail = (segments: PathSegment[], message: string): never => {
    const [located] = locateErrors(source, [{ segments, message }]);
    throw new BundleProblem({ file, ...located! });
  };
  if (!source.root) {
    const first = source.errors[0];
    throw new BundleProblem({ file, path: first?.path ?? "", line: first?.line ?? null, column: first?.column ?? null, message: first?.message ?? "the file is empty" });
  }
  const root = source.root;
  if (root.kind !== "object") return fail([], "parameter values must be a mapping: {parameterValues: [{name, value}, …]} or {Name: value, …}");
  const listEntry = root.entries.find((e) => e.key === "parameterValues" && e.value.kind === "array");
  const pairs: Array<{ name: string; value: SourceNode; at: PathSegment[] }> = [];
  if (!listEntry) {
    for (const entry of root.entries) pairs.push({ name: entry.key, value: entry.value, at: [entry.key] });
  } else {
    // The Deadline Cloud shape: a list of {name, value} items and nothing else.
    const other = root.entries.find((e) => e !== listEntry);
    if (other) fail([other.key], `unexpected key '${other.key}' beside parameterValues`);
    const items = listEntry.value.kind === "array" ? listEntry.value.items : [];
    items.forEach((item, i) => {
      const at: PathSegment[] = ["parameterValues", i];
      if (item.kind !== "object") return fail(at, "each parameterValues item must be a mapping {name, value}");
      const name = item.entries.find((e) => e.key === "name")?.value;
      const value = item.entries.find((e) => e.key === "value")?.value;
      const extra = item.entries.find((e) => e.key !== "name" && e.key !== "value");
      if (extra) fail([...at, extra.key], `unexpected key '${extra.key}'; an item has only name and value`);
      if (name?.kind !== "string" || name.value === "") return fail([...at, "name"], "name must be a non-empty string");
      if (!value) return fail(at, `parameter ${name.value} has no value`);
      if (pairs.some((p) => p.name === name.value)) fail([...at, "name"], `parameter ${name.value} is given more than once`);
      pairs.push({ name: name.value, value, at: [...at, "value"] });
    });
  }
  return splitDeadlineValues(pairs, fail);
}

const DEADLINE_SETTINGS: Record<string, keyof SubmitSettings> = {
  "deadline:priority": "priority",
  "deadline:targetTaskRunStatus": "initialState",
  "deadline:maxFailedTasksCount": "maxFailedTasks",
  "deadline:maxRetriesPerTask": "maxRetriesPerTask",
  // Deadline has no such settings; a bundle written for Loom names them in its own namespace.
  "loom:retryDelaySeconds": "retryDelaySeconds",
  "loom:maxWorkerFailures": "maxWorkerFailures",
};

function splitDeadlineValues(pairs: ReadonlyArray<{ name: string; value: SourceNode; at: PathSegment[] }>, fail: (at: PathSegment[], message: string) => never): Values {
  // Entries, not assignment: `__proto__` is a valid parameter name and must stay an own key.
  const values: Array<[string, ParameterInput]> = [];
  const settings: Record<string, unknown> = {};
  const ignored: string[] = [];
  for (const { name, value, at } of pairs) {
    const loom = name.startsWith("loom:");
    if (!name.startsWith("deadline:") && !loom) values.push([name, value]);
    else if (!Object.hasOwn(DEADLINE_SETTINGS, name)) {
      // Deadline's queue settings mean nothing here; a `loom:` name that is not ours is a typo.
      if (loom)
        fail(
          at,
          `${name} is not a Loom setting (${Object.keys(DEADLINE_SETTINGS)
            .filter((n) => n.startsWith("loom:"))
            .join(", ")})`,
        );
      ignored.push(name);
    } else if (DEADLINE_SETTINGS[name] === "initialState") {
      if (value.kind !== "string") fail(at, `${name} must be READY or SUSPENDED`);
      settings.initialState = value.kind === "string" ? value.value : "";
    } else {
      const number = value.kind === "int" ? Number(value.value) : value.kind === "string" && /^[0-9]+$/.test(value.value) ? Number(value.value) : null;
      if (number === null) fail(at, `${name} must be a whole number`);
      settings[DEADLINE_SETTINGS[name]!] = number;
    }
  }
  return { parameterValues: Object.fromEntries(values), settings: settings as SubmitSettings, ignored };
}

function decode(bytes: Uint8Array, file: string): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    throw problem(file, `'${file}' is not UTF-8 text`);
  }
}

interface ZipEntry {
  name: string;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  headerOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** Reads the central directory of a zip held in memory and inflates single entries on demand. */
class ZipReader {
  readonly #entries = new Map<string, ZipEntry>();

  constructor(
    private readonly bytes: Buffer,
    private readonly label: string,
  ) {
    const end = this.findEnd();
    const count = bytes.readUInt16LE(end + 10);
    const size = bytes.readUInt32LE(end + 12);
    const start = bytes.readUInt32LE(end + 16);
    if (bytes.readUInt16LE(end + 4) !== 0 || bytes.readUInt16LE(end + 6) !== 0) throw this.fail("is split over several disks");
    if (count === 0xffff || size === 0xffffffff || start === 0xffffffff) throw this.fail("is a ZIP64 archive, which is not supported");
    if (start + size > end) throw this.fail("has a central directory outside the file");
    let total = 0;
    let at = start;
    for (let i = 0; i < count; i++) {
      if (at + 46 > end || bytes.readUInt32LE(at) !== CENTRAL) throw this.fail("has a damaged central directory");
      const flags = bytes.readUInt16LE(at + 8);
      const nameLength = bytes.readUInt16LE(at + 28);
      const nameBytes = bytes.subarray(at + 46, at + 46 + nameLength);
      const entry: ZipEntry = {
        // Bit 11 marks UTF-8 names; older tools wrote code page 437, close enough to latin1 for names.
        name: nameBytes.toString(flags & 0x800 ? "utf8" : "latin1"),
        flags,
        method: bytes.readUInt16LE(at + 10),
        crc: bytes.readUInt32LE(at + 16),
        compressedSize: bytes.readUInt32LE(at + 20),
        size: bytes.readUInt32LE(at + 24),
        headerOffset: bytes.readUInt32LE(at + 42),
      };
      if (escapes(entry.name)) throw this.fail(`holds '${entry.name}', a name that leads outside the bundle`);
      total += entry.size;
      if (total > MAX_BUNDLE_BYTES) throw this.fail(`unpacks to more than ${MAX_BUNDLE_BYTES} bytes`);
      if (!entry.name.endsWith("/")) this.#entries.set(entry.name.replace(/\\/g, "/"), entry);
      at += 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
    }
  }

  names(): string[] {
    return [...this.#entries.keys()];
  }

  has(name: string): boolean {
    return this.#entries.has(name);
  }

  text(name: string): string {
    const entry = this.#entries.get(name)!;
    const file = `${this.label}!/${name}`;
    if (entry.flags & 1) throw problem(file, `'${file}' is encrypted`);
    const { bytes } = this;
    const header = entry.headerOffset;
    if (header + 30 > bytes.length || bytes.readUInt32LE(header) !== LOCAL) throw problem(file, `'${file}' has a damaged local header`);
    const dataStart = header + 30 + bytes.readUInt16LE(header + 26) + bytes.readUInt16LE(header + 28);
    if (dataStart + entry.compressedSize > bytes.length) throw problem(file, `'${file}' is cut short`);
    const data = bytes.subarray(dataStart, dataStart + entry.compressedSize);
    let content: Buffer;
    if (entry.method === 0) content = data;
    else if (entry.method === 8) {
      try {
        content = inflateRawSync(data, { maxOutputLength: Math.max(entry.size, 1) });
      } catch {
        throw problem(file, `'${file}' could not be inflated (damaged, or larger than its recorded ${entry.size} bytes)`);
      }
    } else throw problem(file, `'${file}' uses compression method ${entry.method}; only stored (0) and deflate (8) are supported`);
    if (content.length !== entry.size || crc32(content) !== entry.crc) throw problem(file, `'${file}' is damaged (size or checksum mismatch)`);
    return decode(content, file);
  }

  private findEnd(): number {
    const { bytes } = this;
    const lowest = Math.max(0, bytes.length - 22 - 0xffff);
    for (let at = bytes.length - 22; at >= lowest; at--) if (bytes.readUInt32LE(at) === EOCD) return at;
    throw this.fail("is not a zip file (no end of central directory record)");
  }

  private fail(message: string): BundleProblem {
    return problem(this.label, `'${this.label}' ${message}`);
  }
}

/** Absolute names, drive letters, `..` segments or NUL could address files outside the bundle. */
function escapes(name: string): boolean {
  const normalized = name.replace(/\\/g, "/");
  return normalized === "" || normalized.startsWith("/") || /^[A-Za-z]:/.test(normalized) || normalized.includes("\0") || normalized.split("/").includes("..");
}

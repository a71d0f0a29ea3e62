/**
 * Shared state of one template validation: the error sink, the declared extensions and the
 * limits they imply. Validators take a context, a node and its path, report every problem
 * they find and return the typed value (or null when it is unusable).
 */
import { ErrorSink, type PathSegment } from "../errors";
import { requiresExtension, type ExtensionName } from "../extensions";
import type { Path } from "../model";
import { getEntry, kindName, type ObjectNode, type SourceNode } from "../source-node";

export interface Limits {
  jobNameLength: number;
  nameLength: number;
  identifierLength: number;
  filenameLength: number;
  jobParameters: number;
  environmentTemplateParameters: number;
}

export const BASE_LIMITS: Limits = {
  jobNameLength: 128,
  nameLength: 64,
  identifierLength: 64,
  filenameLength: 64,
  jobParameters: 50,
  environmentTemplateParameters: 50,
};

export const FEATURE_BUNDLE_1_LIMITS: Limits = {
  jobNameLength: 512,
  nameLength: 512,
  identifierLength: 512,
  filenameLength: 256,
  jobParameters: 200,
  environmentTemplateParameters: 50,
};

export class ValidationContext {
  readonly sink = new ErrorSink();
  readonly limits: Limits;

  /**
   * @param extensions declared extensions that Loom supports (they switch rules on)
   * @param declared every extension the document declares, supported or not (for clearer messages)
   */
  constructor(
    readonly extensions: ReadonlySet<ExtensionName>,
    readonly declared: ReadonlySet<ExtensionName> = extensions,
  ) {
    this.limits = extensions.has("FEATURE_BUNDLE_1") ? FEATURE_BUNDLE_1_LIMITS : BASE_LIMITS;
  }

  has(extension: ExtensionName): boolean {
    return this.extensions.has(extension);
  }

  error(path: Path, message: string, atKey = false): void {
    this.sink.add(path, message, atKey);
  }

  /** Reports `what requires extension X` unless the document declared X. Returns true when allowed. */
  gate(path: Path, what: string, extension: ExtensionName, atKey = true): boolean {
    if (this.has(extension)) return true;
    this.error(path, requiresExtension(what, extension), atKey);
    return false;
  }
}

export function child(path: Path, segment: PathSegment): PathSegment[] {
  return [...path, segment];
}

export interface FieldSpec {
  required?: readonly string[];
  optional?: readonly string[];
  /** Fields that only exist with an extension: reported as "requires extension X" when undeclared. */
  gated?: Readonly<Record<string, ExtensionName>>;
}

/**
 * Checks that `node` is a mapping with only the given fields and all required ones present.
 * Returns the mapping (even when fields are wrong, so callers keep validating) or null.
 */
export function expectObject(ctx: ValidationContext, node: SourceNode, path: Path, spec: FieldSpec): ObjectNode | null {
  if (node.kind !== "object") {
    ctx.error(path, `expected a mapping, got ${kindName(node)}`);
    return null;
  }
  const allowed = new Set([...(spec.required ?? []), ...(spec.optional ?? [])]);
  const seen = new Set<string>();
  for (const entry of node.entries) {
    seen.add(entry.key);
    const gate = spec.gated?.[entry.key];
    if (gate !== undefined) {
      ctx.gate(child(path, entry.key), `field '${entry.key}'`, gate);
    } else if (!allowed.has(entry.key)) {
      ctx.error(child(path, entry.key), `unknown field '${entry.key}'`, true);
    }
  }
  for (const key of spec.required ?? []) {
    if (!seen.has(key)) ctx.error(child(path, key), `missing required field '${key}'`);
  }
  return node;
}

export function field(node: ObjectNode, key: string): SourceNode | undefined {
  return getEntry(node, key)?.value;
}

/** A list field: must be a list with at least `min` items (OpenJD forbids empty optional lists). */
export function expectList(ctx: ValidationContext, node: SourceNode, path: Path, options: { min?: number; max?: number; what?: string } = {}): SourceNode[] | null {
  if (node.kind !== "array") {
    ctx.error(path, `expected a list, got ${kindName(node)}`);
    return null;
  }
  const min = options.min ?? 1;
  if (node.items.length < min) {
    ctx.error(path, min === 1 ? "must not be empty (leave the field out instead)" : `must have at least ${min} items`);
  }
  if (options.max !== undefined && node.items.length > options.max) {
    ctx.error(path, `must have at most ${options.max} items, has ${node.items.length}`);
  }
  return node.items;
}

/**
 * The items of a list that are mappings with a string `name`, as written. List-level rules
 * (unique names, cross references) use these so that a problem inside one item does not hide them.
 */
export function namedItems(items: readonly SourceNode[], path: Path): Array<{ name: string; path: Path; node: ObjectNode }> {
  return items.flatMap((item, i) => {
    if (item.kind !== "object") return [];
    const name = field(item, "name");
    return name?.kind === "string" ? [{ name: name.value, path: child(path, i), node: item }] : [];
  });
}

/** Reports duplicates among named items; `normalize` lets names compare case-insensitively. */
export function checkUnique(ctx: ValidationContext, items: ReadonlyArray<{ name: string; path: Path }>, what: string, normalize: (name: string) => string = (name) => name): void {
  const seen = new Map<string, string>();
  for (const item of items) {
    const key = normalize(item.name);
    const first = seen.get(key);
    if (first !== undefined) ctx.error(child(item.path, "name"), `duplicate ${what} '${item.name}'`);
    else seen.set(key, item.name);
  }
}

/**
 * Mutated templates for robustness testing: a corpus template is parsed into a plain tree, a
 * few tree mutations (deleted, duplicated, swapped or renamed keys, type confusion, boundary
 * numbers, hostile strings, range and combination expressions, deep nesting, grafts from other
 * templates) are applied, the tree is written back as YAML or JSON, and text mutations
 * (truncation, flipped characters, anchors and aliases, JSON dialect slips) may follow.
 * Everything is drawn from a seeded Random, so a case is reproduced from its seed alone.
 */
import { parse, stringify } from "yaml";
import type { DocumentFormat } from "../parse-source";
import type { Random } from "./random";
import { boundaryNumber, longString, nested, otherTypeValue, randomCombinationExpr, randomRangeExpr, RawScalar, withBraces, withControlCharacters, withUnicode, type TreeValue } from "./random-values";
import { TEXT_MUTATIONS, type TextMutation } from "./text-mutations";

export { RawScalar, type TreeValue } from "./random-values";

export interface SeedTemplate {
  name: string;
  text: string;
  format: DocumentFormat;
}

export interface MutatedTemplate {
  text: string;
  format: DocumentFormat;
  /** The mutations applied, e.g. `tree:change-type+text:truncate`, for reports. */
  kind: string;
  seedName: string;
}

type TreeMutation = (rng: Random, tree: TreeValue, ctx: { donors: readonly TreeValue[] }) => TreeValue;
type Slot = { parent: TreeValue[] | { [key: string]: TreeValue }; key: string | number; value: TreeValue };

/** OpenJD field names (and a few near misses) that renamed and generated keys are drawn from. */
export const FIELD_NAMES = [
  "specificationVersion",
  "name",
  "description",
  "steps",
  "parameterDefinitions",
  "jobEnvironments",
  "stepEnvironments",
  "script",
  "actions",
  "onRun",
  "onEnter",
  "onExit",
  "command",
  "args",
  "timeout",
  "cancelation",
  "mode",
  "embeddedFiles",
  "filename",
  "type",
  "data",
  "runnable",
  "variables",
  "parameterSpace",
  "taskParameterDefinitions",
  "combination",
  "range",
  "dependencies",
  "dependsOn",
  "hostRequirements",
  "amounts",
  "attributes",
  "anyOf",
  "allOf",
  "min",
  "max",
  "default",
  "allowedValues",
  "minValue",
  "maxValue",
  "minLength",
  "maxLength",
  "userInterface",
  "control",
  "label",
  "extensions",
  "chunks",
  "defaultTaskCount",
  "targetRuntimeSeconds",
  "rangeConstraint",
  "objectType",
  "dataFlow",
  "$schema",
  "",
  "Name",
  "x",
];

/** Every value below the root, in document order (capped, since grafts can make trees large). */
function slots(tree: TreeValue, limit = 5000): Slot[] {
  const out: Slot[] = [];
  const visit = (node: TreeValue) => {
    if (out.length >= limit || node === null || typeof node !== "object" || node instanceof RawScalar) return;
    const entries: Array<[string | number, TreeValue]> = Array.isArray(node) ? node.map((v, i) => [i, v]) : Object.entries(node);
    for (const [key, value] of entries) {
      out.push({ parent: node, key, value });
      visit(value);
    }
  };
  visit(tree);
  return out;
}

function setSlot(slot: Slot, value: TreeValue): void {
  if (Array.isArray(slot.parent)) slot.parent[slot.key as number] = value;
  else slot.parent[slot.key as string] = value;
}

function pickSlot(rng: Random, tree: TreeValue, filter?: (slot: Slot) => boolean): Slot | null {
  const all = slots(tree);
  const chosen = filter ? all.filter(filter) : all;
  return chosen.length > 0 ? rng.pick(chosen) : null;
}

const isString = (s: Slot) => typeof s.value === "string";
const isMapSlot = (s: Slot) => !Array.isArray(s.parent);

/** Rebuilds a map with its entries transformed, keeping insertion order meaningful. */
function rebuildMap(slot: Slot, change: (entries: Array<[string, TreeValue]>) => Array<[string, TreeValue]>): void {
  const map = slot.parent as { [key: string]: TreeValue };
  const entries = change(Object.entries(map));
  for (const key of Object.keys(map)) delete map[key];
  for (const [key, value] of entries) map[key] = value;
}

const TREE_MUTATIONS: Record<string, TreeMutation> = {
  "delete-key": (rng, tree) => {
    const slot = pickSlot(rng, tree);
    if (!slot) return tree;
    if (Array.isArray(slot.parent)) slot.parent.splice(slot.key as number, 1);
    else delete slot.parent[slot.key as string];
    return tree;
  },
  duplicate: (rng, tree) => {
    const slot = pickSlot(rng, tree);
    if (!slot) return tree;
    if (Array.isArray(slot.parent)) slot.parent.splice(slot.key as number, 0, clone(slot.value));
    else slot.parent[rng.pick(FIELD_NAMES)] = clone(slot.value);
    return tree;
  },
  "swap-keys": (rng, tree) => {
    const slot = pickSlot(rng, tree, isMapSlot);
    if (!slot) return tree;
    rebuildMap(slot, (entries) => {
      const i = rng.int(entries.length);
      const j = rng.int(entries.length);
      const a = entries[i]!;
      const b = entries[j]!;
      // Either swap the values under the keys or just reorder the entries (which stays valid).
      if (rng.chance(0.5))
        [entries[i], entries[j]] = [
          [a[0], b[1]],
          [b[0], a[1]],
        ];
      else [entries[i], entries[j]] = [b, a];
      return entries;
    });
    return tree;
  },
  "rename-key": (rng, tree) => {
    const slot = pickSlot(rng, tree, isMapSlot);
    if (!slot) return tree;
    const renamed = rng.pick([() => rng.pick(FIELD_NAMES), () => String(slot.key).toUpperCase(), () => `${String(slot.key)} `, () => withUnicode(rng, String(slot.key))])();
    rebuildMap(slot, (entries) => entries.map(([k, v]) => (k === slot.key ? [renamed, v] : [k, v])));
    return tree;
  },
  "change-type": (rng, tree) => mutateSlot(rng, tree, (slot) => otherTypeValue(rng, slot.value)),
  "boundary-number": (rng, tree) => mutateSlot(rng, tree, () => boundaryNumber(rng)),
  "long-string": (rng, tree) => mutateSlot(rng, tree, () => longString(rng), isString),
  "control-chars": (rng, tree) => mutateSlot(rng, tree, (s) => withControlCharacters(rng, String(s.value)), isString),
  unicode: (rng, tree) => mutateSlot(rng, tree, (s) => withUnicode(rng, String(s.value)), isString),
  braces: (rng, tree) => mutateSlot(rng, tree, (s) => withBraces(rng, String(s.value)), isString),
  "range-expr": (rng, tree) =>
    mutateSlot(
      rng,
      tree,
      () => randomRangeExpr(rng),
      (s) => s.key === "range" || rng.chance(0.05),
    ),
  "combination-expr": (rng, tree) =>
    mutateSlot(
      rng,
      tree,
      () => randomCombinationExpr(rng, parameterNames(tree)),
      (s) => s.key === "combination" || s.key === "parameterSpace" || rng.chance(0.03),
    ),
  "deep-nesting": (rng, tree) => mutateSlot(rng, tree, () => nested(rng, rng.pick([3, 20, 127, 128, 129, 200, 400]))),
  "big-list": (rng, tree) => mutateSlot(rng, tree, (s) => Array.from({ length: rng.pick([1025, 2000, 10_000]) }, (_, i) => (typeof s.value === "string" ? `${s.value}${i}` : BigInt(i)))),
  graft: (rng, tree, { donors }) => {
    const donor = donors.length > 0 ? pickSlot(rng, rng.pick(donors)) : null;
    return donor ? mutateSlot(rng, tree, () => clone(donor.value)) : tree;
  },
  "reorder-keys": (rng, tree) => {
    const slot = pickSlot(rng, tree, isMapSlot);
    if (slot)
      rebuildMap(slot, (entries) =>
        entries
          .map((e) => [rng.next(), e] as const)
          .sort((a, b) => a[0] - b[0])
          .map(([, e]) => e),
      );
    return tree;
  },
  "benign-number": (rng, tree) =>
    mutateSlot(
      rng,
      tree,
      (s) => (typeof s.value === "bigint" ? s.value + BigInt(rng.between(-2, 2)) : s.value),
      (s) => typeof s.value === "bigint",
    ),
  "benign-text": (rng, tree) =>
    mutateSlot(
      rng,
      tree,
      (s) => `${String(s.value)}${rng.pick(["", " x", "2", "-b"])}`,
      (s) => isString(s) && ["name", "description", "label"].includes(String(s.key)),
    ),
};

function mutateSlot(rng: Random, tree: TreeValue, make: (slot: Slot) => TreeValue, filter?: (slot: Slot) => boolean): TreeValue {
  const slot = pickSlot(rng, tree, filter) ?? pickSlot(rng, tree);
  if (!slot) return make({ parent: [], key: 0, value: tree });
  setSlot(slot, make(slot));
  return tree;
}

function parameterNames(tree: TreeValue): string[] {
  const names: string[] = [];
  for (const slot of slots(tree)) {
    if (slot.key === "name" && typeof slot.value === "string" && !Array.isArray(slot.parent) && "range" in slot.parent) names.push(slot.value);
  }
  return names;
}

export function clone(value: TreeValue): TreeValue {
  if (Array.isArray(value)) return value.map(clone);
  if (value !== null && typeof value === "object" && !(value instanceof RawScalar)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, clone(v)]));
  }
  return value;
}

/** Reads a template into a tree; null when it is not parseable (it is then only text-mutated). */
export function parseTree(text: string): TreeValue | null {
  try {
    return parse(text, { intAsBigInt: true }) as TreeValue;
  } catch {
    return null;
  }
}

/** Writes a tree as YAML (block or flow style) or JSON; RawScalars go in verbatim. */
export function writeTree(tree: TreeValue, format: DocumentFormat, flow = false): string {
  const raws: string[] = [];
  const swap = (value: TreeValue): unknown => {
    if (typeof value === "bigint" || value instanceof RawScalar) {
      raws.push(typeof value === "bigint" ? value.toString() : value.text);
      return `RAWSCALAR${raws.length - 1}XQ`;
    }
    if (Array.isArray(value)) return value.map(swap);
    if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, swap(v)]));
    return value;
  };
  const plain = swap(tree);
  const text = format === "json" || flow ? JSON.stringify(plain, null, flow ? undefined : 2) : stringify(plain, { lineWidth: 0 });
  return text.replace(/"?RAWSCALAR(\d+)XQ"?/g, (_m, i: string) => raws[Number(i)] ?? "");
}

/** Mutations that usually keep a valid template valid, so job creation gets exercised too. */
const GENTLE = ["reorder-keys", "benign-text", "benign-number"];

/**
 * One mutated case from `seed`; `donors` are other corpus trees to graft from. A gentle case
 * applies only GENTLE tree mutations and no text mutation.
 */
export function mutateTemplate(rng: Random, seed: SeedTemplate, donors: readonly TreeValue[] = [], gentle = false): MutatedTemplate {
  const kinds: string[] = [];
  let text = seed.text;
  let format = seed.format;
  const tree = gentle || rng.chance(0.7) ? parseTree(seed.text) : null;
  if (tree !== null) {
    let mutated = clone(tree);
    const names = gentle ? GENTLE : Object.keys(TREE_MUTATIONS);
    for (let i = rng.pick([1, 1, 1, 2, 3]); i > 0; i--) {
      const name = rng.pick(names);
      kinds.push(`tree:${name}`);
      mutated = TREE_MUTATIONS[name]!(rng, mutated, { donors });
    }
    if (!gentle && rng.chance(0.15)) format = format === "json" ? "yaml" : "json";
    text = writeTree(mutated, format, format === "yaml" && rng.chance(0.1));
  }
  const textRounds = gentle ? 0 : tree === null ? rng.pick([1, 1, 2, 3]) : rng.chance(0.25) ? 1 : 0;
  for (let i = textRounds; i > 0; i--) {
    const mutation: TextMutation = rng.pick(TEXT_MUTATIONS);
    kinds.push(`text:${mutation.name}`);
    const out = mutation.apply(rng, text, format);
    text = out.text;
    format = out.format ?? format;
  }
  return { text, format, kind: kinds.join("+"), seedName: seed.name };
}

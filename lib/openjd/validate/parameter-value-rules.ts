/**
 * Job parameter values as both template validation (defaults) and job creation (submitted
 * values) read them: integers and floats from nodes or strings, and for the EXPR types (spec
 * §2.9–§2.16) a BOOL, a RANGE_EXPR, and a list read item by item and checked against the list and
 * item constraints. Problems carry the position of the offending item, so a default's error
 * points at `default[2]` or `default[1][0]`.
 */
import type { PathSegment } from "../errors";
import type { FloatLiteral, ListParameterDefinition, ListParameterType, RangeExprParameterDefinition } from "../model";
import { checkFinite, checkInt64, clip, compareBig, compareFloat, parseFloatText, parseIntText, type Parsed } from "../numbers";
import { IntRangeExpr } from "../range-expr";
import { kindName, type SourceNode } from "../source-node";
import { STRING_VALUE_MAX } from "./parameter-constraints";
import { codePointLength } from "./scalars";

/** An INT value: an integer or an integer string ("007"), within int64. */
export function readIntValue(node: SourceNode): Parsed<bigint> {
  if (node.kind === "int") return checkInt64(node.value);
  if (node.kind === "string") return parseIntText(node.value);
  return { ok: false, message: `expected an integer, got ${kindName(node)}${node.kind === "float" ? ` (${clip(node.text)})` : ""}` };
}

/** A FLOAT value: an integer, a finite float or a number string, keeping the text as written. */
export function readFloatValue(node: SourceNode): Parsed<FloatLiteral> {
  if (node.kind === "int") return { ok: true, value: { value: Number(node.value), text: node.text } };
  if (node.kind === "float") return checkFinite({ value: node.value, text: node.text });
  if (node.kind === "string") return parseFloatText(node.value);
  return { ok: false, message: `expected a number, got ${kindName(node)}` };
}

const TRUE_WORDS = new Set(["true", "yes", "on", "1"]);
const FALSE_WORDS = new Set(["false", "no", "off", "0"]);

/** A BOOL value: true/false, the numbers 1/1.0/0/0.0, or true/yes/on/1 and false/no/off/0 in any case (§2.9). */
export function readBoolValue(node: SourceNode): Parsed<boolean> {
  switch (node.kind) {
    case "bool":
      return { ok: true, value: node.value };
    case "int":
    case "float":
      if (Number(node.value) === 1) return { ok: true, value: true };
      if (Number(node.value) === 0) return { ok: true, value: false };
      return { ok: false, message: `${clip(node.text)} is not a boolean; only 1 and 0 count as true and false` };
    case "string": {
      const word = node.value.toLowerCase();
      if (TRUE_WORDS.has(word)) return { ok: true, value: true };
      if (FALSE_WORDS.has(word)) return { ok: true, value: false };
      return { ok: false, message: `'${clip(node.value)}' is not a boolean (true/false, yes/no, on/off or 1/0)` };
    }
    default:
      return { ok: false, message: `expected a boolean, got ${kindName(node)}` };
  }
}

/**
 * A RANGE_EXPR value as written: it must parse as an IntRangeExpr, and minLength/maxLength
 * (default 1024) limit the length of the text written, as for a string (§2.10).
 */
export function checkRangeExprText(definition: RangeExprParameterDefinition, text: string): Parsed<IntRangeExpr> {
  const length = codePointLength(text);
  const max = definition.maxLength ?? STRING_VALUE_MAX;
  if (definition.minLength !== undefined && length < definition.minLength) {
    return { ok: false, message: `'${clip(text)}' is shorter than minLength ${definition.minLength}` };
  }
  if (length > max) return { ok: false, message: `the range expression is ${length} characters long; ${definition.maxLength === undefined ? "at most" : "maxLength allows"} ${max}` };
  const parsed = IntRangeExpr.tryParse(text);
  return parsed.ok ? parsed : { ok: false, message: `'${clip(text)}' is not a range expression: ${parsed.message}` };
}

export interface ItemProblem {
  /** Position inside the list: `[2]`, or `[1, 0]` inside a LIST[LIST[INT]]. */
  at: PathSegment[];
  message: string;
}

export interface ListItemTypes {
  "LIST[STRING]": string;
  "LIST[PATH]": string;
  "LIST[INT]": bigint;
  "LIST[FLOAT]": FloatLiteral;
  "LIST[BOOL]": boolean;
  "LIST[LIST[INT]]": bigint[];
}

export type ListItems<K extends ListParameterType = ListParameterType> = Array<ListItemTypes[K]>;

type ItemReader<T> = (node: SourceNode, at: PathSegment[], problems: ItemProblem[]) => T | null;

const fromParsed =
  <T>(read: (node: SourceNode) => Parsed<T>): ItemReader<T> =>
  (node, at, problems) => {
    const parsed = read(node);
    if (!parsed.ok) problems.push({ at, message: parsed.message });
    return parsed.ok ? parsed.value : null;
  };

function readList<T>(node: SourceNode, at: PathSegment[], problems: ItemProblem[], readItem: ItemReader<T>): T[] | null {
  if (node.kind !== "array") {
    problems.push({ at, message: `expected a list, got ${kindName(node)}` });
    return null;
  }
  const before = problems.length;
  const items = node.items.map((item, i) => {
    if (item.kind === "null") {
      problems.push({ at: [...at, i], message: "null is not allowed in a list" });
      return null;
    }
    return readItem(item, [...at, i], problems);
  });
  return problems.length === before ? (items as T[]) : null;
}

const readStringItem = fromParsed((node) => (node.kind === "string" ? { ok: true, value: node.value } : { ok: false, message: `expected a string, got ${kindName(node)}` }));

const readIntItem = fromParsed(readIntValue);
const readFloatItem = fromParsed(readFloatValue);

const ITEM_READERS: { [K in ListParameterType]: ItemReader<ListItemTypes[K]> } = {
  "LIST[STRING]": readStringItem,
  "LIST[PATH]": readStringItem,
  "LIST[INT]": readIntItem,
  "LIST[FLOAT]": readFloatItem,
  "LIST[BOOL]": fromParsed(readBoolValue),
  "LIST[LIST[INT]]": (node, at, problems) => readList(node, at, problems, readIntItem),
};

/** The items of a list value; a scalar, a null item or an item of the wrong type is a problem. */
export function readListValue<K extends ListParameterType>(type: K, node: SourceNode): { ok: true; items: ListItems<K> } | { ok: false; problems: ItemProblem[] } {
  const problems: ItemProblem[] = [];
  const items = readList(node, [], problems, ITEM_READERS[type] as ItemReader<ListItemTypes[K]>);
  return items === null ? { ok: false, problems } : { ok: true, items };
}

/** Every constraint the items break: list lengths, then each item against `item:`. */
export function listProblems(definition: ListParameterDefinition, items: ListItems): ItemProblem[] {
  const problems: ItemProblem[] = [];
  checkCount(items.length, definition, "", [], problems);
  items.forEach((item, i) => {
    const at = [i];
    switch (definition.type) {
      case "LIST[STRING]":
      case "LIST[PATH]": {
        const text = item as string;
        const length = codePointLength(text);
        const { minLength, maxLength, allowedValues } = definition.item ?? {};
        if (length > STRING_VALUE_MAX) problems.push({ at, message: `the item is ${length} characters long; at most ${STRING_VALUE_MAX} are allowed` });
        else if (minLength !== undefined && length < minLength) problems.push({ at, message: `'${clip(text)}' is shorter than item.minLength ${minLength}` });
        else if (maxLength !== undefined && length > maxLength) problems.push({ at, message: `'${clip(text)}' is longer than item.maxLength ${maxLength}` });
        else if (allowedValues && !allowedValues.includes(text)) {
          problems.push({ at, message: `'${clip(text)}' is not one of item.allowedValues (${allowedValues.map((v) => `'${clip(v)}'`).join(", ")})` });
        }
        break;
      }
      case "LIST[INT]":
        checkNumber(item as bigint, definition.item, compareBig, String, "item.", at, problems);
        break;
      case "LIST[FLOAT]":
        checkNumber(item as FloatLiteral, definition.item, compareFloat, (v) => v.text, "item.", at, problems);
        break;
      case "LIST[LIST[INT]]": {
        const inner = item as bigint[];
        checkCount(inner.length, definition.item ?? {}, "item.", at, problems);
        inner.forEach((value, j) => checkNumber(value, definition.item?.item, compareBig, String, "item.item.", [i, j], problems));
        break;
      }
      case "LIST[BOOL]":
        break;
    }
  });
  return problems;
}

function checkCount(count: number, limits: { minLength?: number; maxLength?: number }, prefix: string, at: PathSegment[], problems: ItemProblem[]): void {
  const what = at.length === 0 ? "the list" : "the inner list";
  const items = `${count} item${count === 1 ? "" : "s"}`;
  if (limits.minLength !== undefined && count < limits.minLength) problems.push({ at, message: `${what} has ${items}; ${prefix}minLength is ${limits.minLength}` });
  if (limits.maxLength !== undefined && count > limits.maxLength) problems.push({ at, message: `${what} has ${items}; ${prefix}maxLength is ${limits.maxLength}` });
}

/** The first rule of `item:` (INT or FLOAT constraints) that a number breaks. */
function checkNumber<T>(
  value: T,
  item: { minValue?: T; maxValue?: T; allowedValues?: T[] } | undefined,
  compare: (a: T, b: T) => number,
  show: (v: T) => string,
  prefix: string,
  at: PathSegment[],
  problems: ItemProblem[],
): void {
  if (!item) return;
  if (item.minValue !== undefined && compare(value, item.minValue) < 0) problems.push({ at, message: `${show(value)} is below ${prefix}minValue ${show(item.minValue)}` });
  else if (item.maxValue !== undefined && compare(value, item.maxValue) > 0) problems.push({ at, message: `${show(value)} is above ${prefix}maxValue ${show(item.maxValue)}` });
  else if (item.allowedValues && !item.allowedValues.some((a) => compare(a, value) === 0)) {
    problems.push({ at, message: `${show(value)} is not one of ${prefix}allowedValues (${item.allowedValues.map(show).join(", ")})` });
  }
}

/** "[2]" / "[1][0]", for messages that cannot point at the item with a path. */
export function describeItemProblem(problem: ItemProblem): string {
  return problem.at.length === 0 ? problem.message : `item ${problem.at.map((i) => `[${i}]`).join("")}: ${problem.message}`;
}

/**
 * Values of the EXPR parameter types at job creation (spec §2.9–§2.16). A submitted value is a
 * YAML/JSON node, or from a command line a string: for the list types that string is JSON text
 * (`-p Items='["a","b"]'`). Job parameter values stay text, in a canonical form the evaluator
 * reads back with `parameterValueToJson`: BOOL `true`/`false`, RANGE_EXPR its canonical
 * expression, lists compact JSON with floats as written (`[1.5,2.0]`).
 */
import type { FloatLiteral, JobParameterDefinition, ListParameterDefinition, ListParameterType } from "../model";
import { clip, floatText, type Parsed } from "../numbers";
import { parseSource } from "../parse-source";
import { kindName, type SourceNode } from "../source-node";
import { checkRangeExprText, describeItemProblem, listProblems, readBoolValue, readListValue, type ItemProblem, type ListItems } from "../validate/parameter-value-rules";
import { resolveDefaultPath, resolveSubmittedPath, type PathContext } from "./path-values";
import type { ParameterValue } from "./types";

type ExprDefinition = Exclude<JobParameterDefinition, { type: "INT" | "FLOAT" | "STRING" | "PATH" }>;

export function coerceExprParameterValue(definition: ExprDefinition, node: SourceNode, paths: PathContext): Parsed<ParameterValue> {
  switch (definition.type) {
    case "BOOL": {
      const parsed = readBoolValue(node);
      return parsed.ok ? { ok: true, value: { type: "BOOL", value: String(parsed.value) } } : parsed;
    }
    case "RANGE_EXPR": {
      const text = node.kind === "string" ? node.value : node.kind === "int" ? node.text : null;
      if (text === null) return { ok: false, message: `expected a range expression such as "1-10", got ${kindName(node)}` };
      return rangeExprValue(definition, text);
    }
    default: {
      const list = node.kind === "string" ? parseJsonList(node.value) : { ok: true as const, value: node };
      if (!list.ok) return list;
      const read = readListValue(definition.type, list.value);
      if (!read.ok) return failure(read.problems);
      const items = definition.type === "LIST[PATH]" ? (read.items as string[]).map((item) => resolveSubmittedPath(item, paths, true)) : read.items;
      return checkedList(definition, items);
    }
  }
}

/** The value of an EXPR parameter that was not submitted; LIST[PATH] items follow the PATH default rules. */
export function defaultExprParameterValue(definition: ExprDefinition, paths: PathContext): Parsed<ParameterValue> | null {
  if (definition.default === undefined) return null;
  switch (definition.type) {
    case "BOOL":
      return { ok: true, value: { type: "BOOL", value: String(definition.default) } };
    case "RANGE_EXPR":
      return rangeExprValue(definition, definition.default);
    case "LIST[PATH]": {
      const problems: ItemProblem[] = [];
      const items = definition.default.map((raw, i) => {
        const resolved = resolveDefaultPath(raw, paths, true);
        if (!resolved.ok) problems.push({ at: [i], message: resolved.message });
        return resolved.ok ? resolved.value : raw;
      });
      return problems.length > 0 ? failure(problems) : checkedList(definition, items);
    }
    default:
      // Checked again: a definition merged from several templates may be narrower than the one that gave the default.
      return checkedList(definition, definition.default as ListItems);
  }
}

function rangeExprValue(definition: ExprDefinition & { type: "RANGE_EXPR" }, text: string): Parsed<ParameterValue> {
  const parsed = checkRangeExprText(definition, text);
  return parsed.ok ? { ok: true, value: { type: "RANGE_EXPR", value: parsed.value.toString() } } : parsed;
}

function parseJsonList(text: string): Parsed<SourceNode> {
  const parsed = parseSource(text, "json");
  if (parsed.root) return { ok: true, value: parsed.root };
  return { ok: false, message: `expected a list, or JSON text of one such as ["a","b"] or [1,2], got '${clip(text)}'` };
}

function checkedList(definition: ListParameterDefinition, items: ListItems): Parsed<ParameterValue> {
  const problems = listProblems(definition, items);
  return problems.length > 0 ? failure(problems) : { ok: true, value: { type: definition.type, value: listText(definition.type, items) } };
}

function failure(problems: readonly ItemProblem[]): { ok: false; message: string } {
  const shown = problems.slice(0, 3).map(describeItemProblem);
  if (problems.length > shown.length) shown.push(`and ${problems.length - shown.length} more`);
  return { ok: false, message: shown.join("; ") };
}

const JSON_NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$/;

/** A float as written when that is valid JSON; `.5`, `1.` and `+2` (YAML spellings) are tidied. */
function jsonFloat(literal: FloatLiteral): string {
  if (JSON_NUMBER.test(literal.text)) return literal.text;
  const tidy = literal.text
    .trim()
    .replace(/^\+/, "")
    .replace(/^(-?)0+(?=[0-9])/, "$1")
    .replace(/^(-?)\./, "$10.")
    .replace(/\.(?=$|[eE])/, ".0");
  return JSON_NUMBER.test(tidy) ? tidy : floatText(literal.value);
}

/** Compact JSON of a list value: the canonical text of list parameter values. */
export function listText(type: ListParameterType, items: ListItems): string {
  switch (type) {
    case "LIST[STRING]":
    case "LIST[PATH]":
    case "LIST[BOOL]":
      return JSON.stringify(items);
    case "LIST[INT]":
      return `[${items.join(",")}]`;
    case "LIST[FLOAT]":
      return `[${(items as FloatLiteral[]).map(jsonFloat).join(",")}]`;
    case "LIST[LIST[INT]]":
      return `[${(items as bigint[][]).map((inner) => `[${inner.join(",")}]`).join(",")}]`;
  }
}

/**
 * A parameter value decoded from its canonical text: BOOL as a boolean, lists as arrays, and
 * every other value — also each number inside a list — as its text, so that int64 values and
 * floats as written ("2.0") survive. The evaluator builds typed values from this.
 */
export function parameterValueToJson(value: ParameterValue): unknown {
  if (value.type === "BOOL") return value.value === "true";
  if (!value.type.startsWith("LIST[")) return value.value;
  const parsed = parseSource(value.value, "json");
  return parsed.root ? fromNode(parsed.root) : value.value;
}

function fromNode(node: SourceNode): unknown {
  switch (node.kind) {
    case "array":
      return node.items.map(fromNode);
    case "bool":
      return node.value;
    case "int":
    case "float":
      return node.text;
    case "string":
      return node.value;
    default:
      return null;
  }
}

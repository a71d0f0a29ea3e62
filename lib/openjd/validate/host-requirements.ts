/**
 * `hostRequirements` (spec §3.3): amount and attribute requirements. Literal names and values
 * are checked here; format strings are checked again after resolution at job creation.
 */
import { checkAttributeValue, checkCapabilityName } from "../capabilities";
import { isPlainLiteral, type FormatString } from "../format-string";
import type { AmountRequirementTemplate, AttributeRequirementTemplate, HostRequirementsTemplate, Path } from "../model";
import type { SourceNode } from "../source-node";
import { child, expectList, expectObject, field, namedItems, type ValidationContext } from "./context";
import { STRING } from "../expr/types";
import { listItemTarget } from "../format-evaluation";
import { readFormat } from "./format-fields";
import { readFloatField } from "./number-fields";
import type { Scope } from "./scopes";

export const MAX_HOST_REQUIREMENTS = 50;
export const MAX_ATTRIBUTE_VALUES = 50;

export function checkHostRequirements(ctx: ValidationContext, node: SourceNode, path: Path, scope: Scope): HostRequirementsTemplate | null {
  const object = expectObject(ctx, node, path, { optional: ["amounts", "attributes"] });
  if (!object) return null;
  const amountsNode = field(object, "amounts");
  const attributesNode = field(object, "attributes");
  if (amountsNode === undefined && attributesNode === undefined) {
    ctx.error(path, "hostRequirements needs amounts, attributes, or both");
  }
  const amountItems = amountsNode ? (expectList(ctx, amountsNode, child(path, "amounts")) ?? []) : [];
  const attributeItems = attributesNode ? (expectList(ctx, attributesNode, child(path, "attributes")) ?? []) : [];
  const total = amountItems.length + attributeItems.length;
  if (total > MAX_HOST_REQUIREMENTS) {
    ctx.error(path, `at most ${MAX_HOST_REQUIREMENTS} requirements in total (amounts and attributes), found ${total}`);
  }
  const amounts = amountItems.map((item, i) => checkAmount(ctx, item, child(child(path, "amounts"), i), scope)).filter((a): a is AmountRequirementTemplate => a !== null);
  const attributes = attributeItems.map((item, i) => checkAttribute(ctx, item, child(child(path, "attributes"), i), scope)).filter((a): a is AttributeRequirementTemplate => a !== null);
  checkDuplicateNames(ctx, namedItems(amountItems, child(path, "amounts")), "amount");
  checkDuplicateNames(ctx, namedItems(attributeItems, child(path, "attributes")), "attribute");
  return { amounts, attributes, path };
}

/** Names as written; those with format strings are compared after resolution, at job creation. */
function checkDuplicateNames(ctx: ValidationContext, requirements: ReadonlyArray<{ name: string; path: Path }>, what: string): void {
  const seen = new Set<string>();
  for (const r of requirements) {
    if (r.name.includes("{{")) continue;
    const key = r.name.toLowerCase();
    if (seen.has(key)) ctx.error(child(r.path, "name"), `duplicate ${what} requirement '${r.name}' (names compare case-insensitively)`);
    seen.add(key);
  }
}

function readName(ctx: ValidationContext, node: SourceNode | undefined, path: Path, scope: Scope, kind: "amount" | "attr"): FormatString | null {
  if (node === undefined) return null;
  const name = readFormat(ctx, node, path, scope, { min: 1 });
  if (name && isPlainLiteral(name)) {
    const problem = checkCapabilityName(name.raw, kind);
    if (problem) {
      ctx.error(path, problem);
      return null;
    }
  }
  return name;
}

function checkAmount(ctx: ValidationContext, node: SourceNode, path: Path, scope: Scope): AmountRequirementTemplate | null {
  const object = expectObject(ctx, node, path, { required: ["name"], optional: ["min", "max"] });
  if (!object) return null;
  const before = ctx.sink.count;
  const name = readName(ctx, field(object, "name"), child(path, "name"), scope, "amount");
  const minNode = field(object, "min");
  const maxNode = field(object, "max");
  if (minNode === undefined && maxNode === undefined) ctx.error(path, "an amount requirement needs min, max, or both");
  const options = (check: (v: number) => string | null) => ({
    stringsNeed: "FEATURE_BUNDLE_1" as const,
    scope,
    check: (v: { value: number }) => check(v.value),
  });
  const min =
    minNode &&
    readFloatField(
      ctx,
      minNode,
      child(path, "min"),
      options((v) => (v >= 0 ? null : "min must be zero or greater")),
    );
  const max =
    maxNode &&
    readFloatField(
      ctx,
      maxNode,
      child(path, "max"),
      options((v) => (v > 0 ? null : "max must be greater than zero")),
    );
  if (min?.kind === "literal" && max?.kind === "literal" && min.value.value > max.value.value) {
    ctx.error(child(path, "max"), "max must be greater than or equal to min");
  }
  if (ctx.sink.count !== before || !name) return null;
  const amount: AmountRequirementTemplate = { name, path };
  if (min) amount.min = min;
  if (max) amount.max = max;
  return amount;
}

function checkAttribute(ctx: ValidationContext, node: SourceNode, path: Path, scope: Scope): AttributeRequirementTemplate | null {
  const object = expectObject(ctx, node, path, { required: ["name"], optional: ["anyOf", "allOf"] });
  if (!object) return null;
  const before = ctx.sink.count;
  const name = readName(ctx, field(object, "name"), child(path, "name"), scope, "attr");
  const anyOfNode = field(object, "anyOf");
  const allOfNode = field(object, "allOf");
  if (anyOfNode === undefined && allOfNode === undefined) ctx.error(path, "an attribute requirement needs anyOf, allOf, or both");
  const readValues = (listNode: SourceNode, key: "anyOf" | "allOf"): FormatString[] => {
    const listPath = child(path, key);
    const items = expectList(ctx, listNode, listPath, { max: MAX_ATTRIBUTE_VALUES }) ?? [];
    const values: FormatString[] = [];
    items.forEach((item, i) => {
      const p = child(listPath, i);
      const value = readFormat(ctx, item, p, scope, { min: 1 }, listItemTarget(STRING));
      if (!value) return;
      if (name && isPlainLiteral(name) && isPlainLiteral(value)) {
        const problem = checkAttributeValue(name.raw, value.raw);
        if (problem) ctx.error(p, problem);
      }
      values.push(value);
    });
    return values;
  };
  const anyOf = anyOfNode && readValues(anyOfNode, "anyOf");
  const allOf = allOfNode && readValues(allOfNode, "allOf");
  if (name && isPlainLiteral(name) && allOf && allOf.length > 1 && isSingleValued(name.raw)) {
    ctx.error(child(path, "allOf"), `${name.raw} has exactly one value on a host, so allOf cannot list several`);
  }
  if (ctx.sink.count !== before || !name) return null;
  const attribute: AttributeRequirementTemplate = { name, path };
  if (anyOf) attribute.anyOf = anyOf;
  if (allOf) attribute.allOf = allOf;
  return attribute;
}

/** Standard attributes describe one property of a host (its OS, its CPU architecture). */
function isSingleValued(name: string): boolean {
  const lower = name.toLowerCase();
  return lower === "attr.worker.os.family" || lower === "attr.worker.cpu.arch";
}

/**
 * Constraint fields of job parameter definitions: allowedValues with minValue/maxValue or
 * minLength/maxLength, each checked against the others. The scalar types use them at the top of
 * a definition; the EXPR list types use the same keys inside `item:` (spec §2.11–§2.16), so the
 * readers take a key prefix for their messages ("item.maxValue").
 */
import type { Path, PathDataFlow, PathObjectType } from "../model";
import type { ObjectNode, SourceNode } from "../source-node";
import { child, expectList, field, type ValidationContext } from "./context";
import { codePointLength, readEnum, readInt, readString } from "./scalars";

/** `<JobParameterStringValue>` (§2.5): at most 1024 characters, also for the string items of lists. */
export const STRING_VALUE_MAX = 1024;

export function optional<T>(ctx: ValidationContext, node: ObjectNode, path: Path, key: string, read: (n: SourceNode, p: Path) => T | null): T | undefined {
  const value = field(node, key);
  if (value === undefined) return undefined;
  return read(value, child(path, key)) ?? undefined;
}

/** Constraint fields as stored on the model, and a check that reports every rule a value breaks. */
export interface Constraints<T, F> {
  fields: F;
  /** `what` names the value in membership messages: "default must be one of allowedValues". */
  check: (value: T, path: Path, what: string) => void;
}

export type NumberFields<T> = { allowedValues?: T[]; minValue?: T; maxValue?: T };
export type LengthFields = { minLength?: number; maxLength?: number };
export type StringFields = LengthFields & { allowedValues?: string[] };

export function numberConstraints<T>(
  ctx: ValidationContext,
  node: ObjectNode,
  path: Path,
  read: (n: SourceNode, p: Path) => T | null,
  compare: (a: T, b: T) => number,
  prefix = "",
): Constraints<T, NumberFields<T>> {
  const minValue = optional(ctx, node, path, "minValue", read);
  const maxValue = optional(ctx, node, path, "maxValue", read);
  if (minValue !== undefined && maxValue !== undefined && compare(minValue, maxValue) > 0) {
    ctx.error(child(path, "maxValue"), "maxValue must be greater than or equal to minValue");
  }
  const inBounds = (value: T, p: Path) => {
    if (minValue !== undefined && compare(value, minValue) < 0) ctx.error(p, `value is below ${prefix}minValue`);
    if (maxValue !== undefined && compare(value, maxValue) > 0) ctx.error(p, `value is above ${prefix}maxValue`);
  };
  const allowedValues = readAllowed(ctx, node, path, read, inBounds);
  return {
    fields: { allowedValues, minValue, maxValue },
    check: (value, p, what) => {
      inBounds(value, p);
      if (allowedValues && !allowedValues.some((a) => compare(a, value) === 0)) ctx.error(p, `${what} must be one of ${prefix}allowedValues`);
    },
  };
}

export function stringConstraints(ctx: ValidationContext, node: ObjectNode, path: Path, prefix = ""): Constraints<string, StringFields> {
  const { minLength, maxLength } = readLengths(ctx, node, path, 0);
  const lengthOk = (value: string, p: Path) => {
    const length = codePointLength(value);
    if (minLength !== undefined && length < minLength) ctx.error(p, `value is shorter than ${prefix}minLength (${minLength})`);
    if (maxLength !== undefined && length > maxLength) ctx.error(p, `value is longer than ${prefix}maxLength (${maxLength})`);
  };
  const allowedValues = readAllowed(ctx, node, path, (n, p) => readStringValue(ctx, n, p), lengthOk);
  return {
    fields: { allowedValues, minLength, maxLength },
    check: (value, p, what) => {
      lengthOk(value, p);
      if (allowedValues && !allowedValues.includes(value)) ctx.error(p, `${what} must be one of ${prefix}allowedValues`);
    },
  };
}

/** `objectType` and `dataFlow` of PATH and LIST[PATH] definitions. */
export function readPathFields(ctx: ValidationContext, node: ObjectNode, path: Path): { objectType?: PathObjectType; dataFlow?: PathDataFlow } {
  return {
    objectType: optional(ctx, node, path, "objectType", (n, p) => readEnum(ctx, n, p, ["FILE", "DIRECTORY"] as const)),
    dataFlow: optional(ctx, node, path, "dataFlow", (n, p) => readEnum(ctx, n, p, ["NONE", "IN", "OUT", "INOUT"] as const)),
  };
}

export function readStringValue(ctx: ValidationContext, node: SourceNode, path: Path): string | null {
  return readString(ctx, node, path, { max: STRING_VALUE_MAX });
}

/**
 * `minLength`/`maxLength`: string lengths for STRING and PATH, item counts for lists. `minimum`
 * is the least minLength allowed (RANGE_EXPR needs 1); maxLength is always at least 1.
 */
export function readLengths(ctx: ValidationContext, node: ObjectNode, path: Path, minimum: 0 | 1): LengthFields {
  const readLength = (key: "minLength" | "maxLength", min: number) =>
    optional(ctx, node, path, key, (n, p) => {
      const value = readInt(ctx, n, p, false);
      if (value === null) return null;
      if (value < BigInt(min)) {
        ctx.error(p, `${key} must be ${min === 0 ? "zero or greater" : "greater than zero"}`);
        return null;
      }
      return Number(value);
    });
  const minLength = readLength("minLength", minimum);
  const maxLength = readLength("maxLength", 1);
  if (minLength !== undefined && maxLength !== undefined && minLength > maxLength) {
    ctx.error(child(path, "maxLength"), "maxLength must be greater than or equal to minLength");
  }
  return { minLength, maxLength };
}

function readAllowed<T>(ctx: ValidationContext, node: ObjectNode, path: Path, read: (n: SourceNode, p: Path) => T | null, check: (value: T, p: Path) => void): T[] | undefined {
  const listNode = field(node, "allowedValues");
  if (listNode === undefined) return undefined;
  const listPath = child(path, "allowedValues");
  const items = expectList(ctx, listNode, listPath);
  if (!items) return undefined;
  const values: T[] = [];
  items.forEach((item, i) => {
    const value = read(item, child(listPath, i));
    if (value === null) return;
    check(value, child(listPath, i));
    values.push(value);
  });
  return values;
}

/**
 * Helpers for the function-library tests: value constructors, an evaluation context backed by a
 * real Budget, and one-line renderings of results so tables can state expectations as text.
 */
import { IntRangeExpr } from "../../range-expr";
import { Budget, DEFAULT_LIMITS, type Limits } from "../budget";
import { ExprError } from "../errors";
import type { EvalContext } from "../library";
import { typeToString } from "../types";
import { boolValue, floatValue, intValue, makeList, pathValue, stringValue, toText, typeOf, type ExprValue } from "../values";
import { standardLibrary } from "./index";

export const int = (n: number | bigint): ExprValue => intValue(BigInt(n));
/** A float; `text` is its literal spelling when it was written in the expression ("3.50"). */
export const float = (x: number, text: string | null = null): ExprValue => floatValue(x, text);
export const str = (s: string): ExprValue => stringValue(s);
export const posixPath = (s: string): ExprValue => pathValue(s, "POSIX");
export const bool = (v: boolean): ExprValue => boolValue(v);
export const list = (...items: ExprValue[]): ExprValue => makeList(items);
export const rangeExpr = (text: string): ExprValue => ({ kind: "range_expr", value: IntRangeExpr.parse(text) });
export const ints = (...ns: number[]): ExprValue => makeList(ns.map(int));
export const floats = (...xs: number[]): ExprValue => makeList(xs.map((x) => float(x)));
export const strs = (...ss: string[]): ExprValue => makeList(ss.map(str));

export interface TestContext extends EvalContext {
  readonly budget: Budget;
}

export function testContext(limits: Partial<Limits> = {}): TestContext {
  const budget = new Budget({ ...DEFAULT_LIMITS, ...limits });
  return {
    budget,
    pathFormat: "POSIX",
    mapPath: null,
    charge: (n) => budget.charge(n),
    chargeText: (n) => budget.chargeText(n),
    assertFits: (bytes) => budget.assertFits(bytes),
  };
}

/** Calls a template-scope library function; `method` marks a UFCS call (`x.f()`). */
export function call(name: string, args: ExprValue[], options: { method?: boolean; ctx?: EvalContext } = {}): ExprValue {
  return standardLibrary("template").call(name, args, options.ctx ?? testContext(), options.method ?? false);
}

/** `type text`, strings quoted: `string "ab"`, `float 3.50`, `list[int] [1, 2]`. */
export function show(value: ExprValue): string {
  const type = typeToString(typeOf(value));
  return `${type} ${value.kind === "string" || value.kind === "path" ? JSON.stringify(value.value) : toText(value)}`;
}

/** The shown result of a call, or `<kind> error` when it throws an ExprError. */
export function outcome(name: string, args: ExprValue[], options: { method?: boolean; ctx?: EvalContext } = {}): string {
  try {
    return show(call(name, args, options));
  } catch (error) {
    if (error instanceof ExprError) return `${error.kind} error`;
    throw error;
  }
}

/** The raw text of a string-returning call (for repr tables, where quoting would double up). */
export function textOf(name: string, args: ExprValue[]): string {
  const value = call(name, args);
  if (value.kind !== "string") throw new Error(`${name} returned ${show(value)}`);
  return value.value;
}

export const label = (name: string, args: readonly ExprValue[]): string => `${name}(${args.map(show).join(", ")})`;

/**
 * Unboxing a function implementation's arguments. The dispatcher has already matched them
 * against the overload's signature, so each accessor only narrows the type.
 */
import type { ExprValue } from "../values";

export type List = Extract<ExprValue, { kind: "list" }>;
export type Range = Extract<ExprValue, { kind: "range_expr" }>;

export const int = (v: ExprValue | undefined): bigint => (v as Extract<ExprValue, { kind: "int" }>).value;
export const num = (v: ExprValue | undefined): number => (v as Extract<ExprValue, { kind: "float" }>).value;
/** The text of a string or path. */
export const text = (v: ExprValue | undefined): string => (v as { value: string }).value;
export const asList = (v: ExprValue | undefined): List => v as List;

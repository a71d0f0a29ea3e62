/**
 * split, rsplit and join (spec §2.2.4). Without a separator, split on runs of Python whitespace;
 * an empty separator is an error; `''.split(',')` is `['']`; join takes the list first
 * (`items.join(',')`) so that calls chain: `s.split(';').join(',')`.
 */
import { reserveText } from "../budget";
import { valueError } from "../errors";
import type { EvalContext, FunctionLibrary } from "../library";
import { STRING } from "../types";
import { makeList, stringValue, type ExprValue } from "../values";
import { asList, int, text, type List } from "./args";
import { WHITESPACE_RUN } from "./python-text";

function separator(name: string, sep: string): string {
  if (sep === "") throw valueError(`${name}(): the separator must not be empty (use [s[i] for i in range(len(s))] for characters)`);
  return sep;
}

function splitWhitespace(s: string): string[] {
  return s.split(WHITESPACE_RUN).filter((part) => part !== "");
}

/** Python's str.split(sep, maxsplit): at most `max` cuts from the left; negative means no limit. */
function splitLeft(s: string, sep: string, max: bigint): string[] {
  if (max < 0n) return s.split(sep);
  const parts: string[] = [];
  let start = 0;
  for (let cuts = 0n; cuts < max; cuts++) {
    const at = s.indexOf(sep, start);
    if (at < 0) break;
    parts.push(s.slice(start, at));
    start = at + sep.length;
  }
  parts.push(s.slice(start));
  return parts;
}

/** Python's str.rsplit(sep, maxsplit): the cuts are made from the right. */
function splitRight(s: string, sep: string, max: bigint): string[] {
  if (max < 0n) return s.split(sep);
  const parts: string[] = [];
  let end = s.length;
  for (let cuts = 0n; cuts < max && end >= sep.length; cuts++) {
    const at = s.lastIndexOf(sep, end - sep.length);
    if (at < 0) break;
    parts.push(s.slice(at + sep.length, end));
    end = at;
  }
  parts.push(s.slice(0, end));
  return parts.reverse();
}

/** Wraps the pieces as a list[string]: one operation per piece, memory checked first. */
function pieces(parts: string[], ctx: EvalContext): ExprValue {
  ctx.assertFits(16 + parts.reduce((bytes, part) => bytes + 24 + 2 * part.length, 0));
  ctx.charge(parts.length);
  return makeList(parts.map(stringValue), STRING);
}

function join(list: List, sep: string, ctx: EvalContext): ExprValue {
  const values = list.items.map(text);
  const length = values.reduce((n, v) => n + v.length, 0) + sep.length * Math.max(0, values.length - 1);
  reserveText(ctx, length);
  return stringValue(values.join(sep));
}

export function registerStringSplit(lib: FunctionLibrary): void {
  for (const [name, cut] of [
    ["split", splitLeft],
    ["rsplit", splitRight],
  ] as const) {
    lib
      .define(name, "(string) -> list[string]", ([s], ctx) => pieces(splitWhitespace(text(s)), ctx))
      .define(name, "(string, string) -> list[string]", ([s, sep], ctx) => pieces(text(s).split(separator(name, text(sep))), ctx))
      .define(name, "(string, string, int) -> list[string]", ([s, sep, max], ctx) => pieces(cut(text(s), separator(name, text(sep)), int(max)), ctx));
  }
  lib
    .define("join", "(list[nulltype], string) -> string", () => stringValue(""))
    .define("join", "(list[string], string) -> string", ([l, sep], ctx) => join(asList(l), text(sep), ctx))
    .define("join", "(list[path], string) -> string", ([l, sep], ctx) => join(asList(l), text(sep), ctx));
}

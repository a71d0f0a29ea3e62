/**
 * Mutations of EXPR source text: token drops, duplications and swaps, foreign tokens, random
 * characters, unbalanced brackets and quotes, truncation, splices of two expressions, edge
 * numbers, and "token soup" built from the language's vocabulary. Seeded, so a failing mutation
 * is reproduced from its case seed.
 */
import { tokenize } from "../expr/lexer";
import type { Random } from "./random";

export interface ExprMutation {
  name: string;
  apply(rng: Random, source: string, donor: string): string;
}

/** Tokens (and near-tokens) of the language and of Python around it. */
export const VOCABULARY = [
  "(",
  ")",
  "[",
  "]",
  ",",
  ".",
  ":",
  "+",
  "-",
  "*",
  "/",
  "//",
  "%",
  "**",
  "<",
  ">",
  "<=",
  ">=",
  "==",
  "!=",
  "=",
  "if",
  "else",
  "for",
  "in",
  "not",
  "and",
  "or",
  "is",
  "lambda",
  "true",
  "false",
  "null",
  "None",
  "True",
  "Param",
  "Task",
  "Session",
  "Env",
  "File",
  "Param.Frame",
  "Param.Name",
  "Param.File",
  "Param.Numbers",
  "x",
  "len",
  "range",
  "string",
  "int",
  "float",
  "upper",
  "split",
  "join",
  "sorted",
  "zfill",
  "re_match",
  "re_sub",
  "0",
  "1",
  "-1",
  "9223372036854775807",
  "9223372036854775808",
  "1e308",
  "1e309",
  ".5",
  "0x",
  "1_",
  "''",
  "'a'",
  "'\\x4'",
  "'\\u12'",
  "r'\\'",
  "f'x'",
  "b'x'",
  "{{",
  "}}",
  "{",
  "}",
  "#",
  ";",
  "\\",
  "!",
  "&",
  "|",
  "~",
  "@",
  "`",
  "$",
];
const CHARACTERS = ["(", ")", "[", "]", "'", '"', "\\", ".", ",", ":", "_", "0", "9", "e", "\n", "\t", "\u0000", "\u00a0", "\u200b", "\u{1F600}", "\ud800", "é", "İ", "{", "}", "=", "<", "-", " "];
const EDGE_NUMBERS = ["9223372036854775807", "9223372036854775808", "-9223372036854775808", "18446744073709551616", "1e308", "1e309", "5e-324", "0", "-0.0", "0x8000000000000000", "10**18", "2**63"];

function tokensOf(source: string): string[] | null {
  const result = tokenize(source);
  return result.ok ? result.tokens.filter((t) => t.kind !== "eof").map((t) => source.slice(t.span.start, t.span.end)) : null;
}

/** Applies `edit` to the token list when the source tokenizes, else to its characters. */
function onTokens(rng: Random, source: string, edit: (tokens: string[]) => void): string {
  const tokens = tokensOf(source) ?? [...source];
  if (tokens.length === 0) return rng.pick(VOCABULARY);
  edit(tokens);
  return tokens.join(tokensOf(source) === null ? "" : " ");
}

export const EXPR_MUTATIONS: readonly ExprMutation[] = [
  { name: "token-drop", apply: (rng, src) => onTokens(rng, src, (t) => t.splice(rng.int(t.length), rng.between(1, 2))) },
  {
    name: "token-duplicate",
    apply: (rng, src) =>
      onTokens(rng, src, (t) => {
        const at = rng.int(t.length);
        t.splice(at, 0, ...t.slice(at, at + rng.between(1, 3)));
      }),
  },
  {
    name: "token-swap",
    apply: (rng, src) =>
      onTokens(rng, src, (t) => {
        const a = rng.int(t.length);
        const b = rng.int(t.length);
        [t[a], t[b]] = [t[b] as string, t[a] as string];
      }),
  },
  { name: "token-insert", apply: (rng, src) => onTokens(rng, src, (t) => t.splice(rng.int(t.length + 1), 0, rng.pick(VOCABULARY))) },
  { name: "token-replace", apply: (rng, src) => onTokens(rng, src, (t) => t.splice(rng.int(t.length), 1, rng.pick(VOCABULARY))) },
  {
    name: "edge-number",
    apply: (rng, src) =>
      onTokens(rng, src, (t) => {
        const numbers = t.flatMap((token, i) => (/^[0-9.]/.test(token) ? [i] : []));
        t.splice(numbers.length > 0 ? rng.pick(numbers) : rng.int(t.length), 1, rng.pick(EDGE_NUMBERS));
      }),
  },
  {
    name: "random-characters",
    apply: (rng, src) => {
      const chars = [...src];
      for (let i = rng.between(1, 4); i > 0; i--) {
        const at = rng.int(chars.length + 1);
        if (rng.chance(0.3) && chars.length > 0) chars.splice(at, 1);
        else chars.splice(at, 0, rng.chance(0.7) ? rng.pick(CHARACTERS) : String.fromCharCode(rng.int(0x3000)));
      }
      return chars.join("");
    },
  },
  {
    name: "unbalance",
    apply: (rng, src) => {
      const closers = [...src.matchAll(/[)\]'"]/g)].map((m) => m.index);
      if (closers.length > 0 && rng.chance(0.5)) {
        const at = rng.pick(closers);
        return src.slice(0, at) + src.slice(at + 1);
      }
      const at = rng.int(src.length + 1);
      return src.slice(0, at) + rng.pick(["(", "[", "'", '"', ")", "]", "r'", "'''"]) + src.slice(at);
    },
  },
  { name: "truncate", apply: (rng, src) => src.slice(0, rng.int(src.length + 1)) },
  {
    name: "splice",
    apply: (rng, src, donor) => src.slice(0, rng.int(src.length + 1)) + donor.slice(rng.int(donor.length + 1)),
  },
  {
    name: "combine",
    apply: (rng, src, donor) => `${src} ${rng.pick(["+", "if", "else", "and", "or", "in", "==", ",", "for x in", "["])} ${donor}`,
  },
  {
    name: "repeat-fragment",
    apply: (rng, src) => {
      const start = rng.int(src.length + 1);
      const fragment = src.slice(start, start + rng.between(1, 12));
      return src.slice(0, start) + fragment.repeat(rng.between(2, 60)) + src.slice(start);
    },
  },
];

/** A mutated corpus expression (one to three mutations), naming what was done. */
export function mutateExpression(rng: Random, source: string, donor: string): { source: string; kind: string } {
  let text = source;
  const names: string[] = [];
  for (let i = rng.between(1, 3); i > 0; i--) {
    const mutation = rng.pick(EXPR_MUTATIONS);
    text = mutation.apply(rng, text, donor);
    names.push(mutation.name);
  }
  return { source: text, kind: `mutated(${names.join(",")})` };
}

/** A random sequence of vocabulary tokens. */
export function tokenSoup(rng: Random): string {
  return Array.from({ length: rng.between(1, 16) }, () => rng.pick(VOCABULARY)).join(rng.chance(0.5) ? " " : "");
}

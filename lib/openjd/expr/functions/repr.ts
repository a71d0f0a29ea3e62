/**
 * Script quoting and serialization (spec §2.2.6): repr_sh (Python shlex.quote/join), repr_cmd
 * (cmd.exe/.bat), repr_pwsh (PowerShell literals), repr_py (CPython repr) and repr_json (Python
 * json.dumps: ASCII-only, ", " separators). The output size is bounded and charged before any
 * text is built.
 */
import { reserveText } from "../budget";
import { valueError } from "../errors";
import type { EvalContext, FunctionLibrary } from "../library";
import { stringValue, toText, type ExprValue } from "../values";
import { text } from "./args";
import { isSpaceChar } from "./python-text";

const hex = (n: number, width: number) => n.toString(16).padStart(width, "0");

/** Items and characters nested inside a value; what the evaluator did not already charge for. */
function measure(value: ExprValue, depth = 0): { items: number; chars: number } {
  if (value.kind === "string" || value.kind === "path") return { items: 0, chars: value.value.length };
  if (value.kind === "range_expr") return { items: 0, chars: 24 * value.value.ranges.length };
  if (value.kind !== "list") return { items: 0, chars: 0 };
  let items = depth > 0 ? value.items.length : 0;
  let chars = 0;
  for (const item of value.items) {
    const inner = measure(item, depth + 1);
    items += inner.items;
    chars += inner.chars;
  }
  return { items, chars };
}

/** Charges nested work, then checks the widest escaping (`\U0010ffff` is 10 characters for 2). */
function reserveRepr(value: ExprValue, ctx: EvalContext): void {
  const { items, chars } = measure(value);
  ctx.charge(items);
  if (value.kind === "list") ctx.chargeText(chars);
  const count = value.kind === "list" ? value.items.length + items : 1;
  reserveText(ctx, 10 * chars + 32 * count + 8);
}

/** The Python repr of a string: CPython's quote choice, escapes and printable test. */
function pythonStringRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const c of s) {
    const cp = c.codePointAt(0) as number;
    if (c === quote || c === "\\") out += `\\${c}`;
    else if (c === "\n") out += "\\n";
    else if (c === "\r") out += "\\r";
    else if (c === "\t") out += "\\t";
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${hex(cp, 2)}`;
    else if (cp < 0x7f || !NON_PRINTABLE.test(c)) out += c;
    else if (cp <= 0xff) out += `\\x${hex(cp, 2)}`;
    else if (cp <= 0xffff) out += `\\u${hex(cp, 4)}`;
    else out += `\\U${hex(cp, 8)}`;
  }
  return out + quote;
}

/** Py_UNICODE_ISPRINTABLE inverted: general categories C* and Z* (the ASCII space is handled before). */
const NON_PRINTABLE = /^[\p{C}\p{Z}]$/u;

/** A JSON string as Python's json.dumps writes it (ensure_ascii: everything outside ' '..'~' escaped). */
function jsonString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const unit = s.charCodeAt(i);
    const c = s[i] as string;
    if (c === '"' || c === "\\") out += `\\${c}`;
    else if (unit >= 0x20 && unit <= 0x7e) out += c;
    else out += JSON_NAMED[c] ?? `\\u${hex(unit, 4)}`;
  }
  return `${out}"`;
}

const JSON_NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f" };

function python(value: ExprValue): string {
  switch (value.kind) {
    case "null":
      return "None";
    case "bool":
      return value.value ? "True" : "False";
    case "string":
    case "path":
      return pythonStringRepr(value.value);
    case "range_expr":
      return pythonStringRepr(value.value.toString());
    case "list":
      return `[${value.items.map(python).join(", ")}]`;
    default:
      return toText(value);
  }
}

function json(value: ExprValue): string {
  switch (value.kind) {
    case "string":
    case "path":
      return jsonString(value.value);
    case "range_expr":
      return jsonString(value.value.toString());
    case "list":
      return `[${value.items.map(json).join(", ")}]`;
    default:
      return toText(value);
  }
}

/** shlex.quote: words of [A-Za-z0-9_@%+=:,./-] stay bare; anything else is single-quoted. */
function shellWord(s: string): string {
  if (s === "") return "''";
  if (!/[^\w@%+=:,./-]/.test(s)) return s;
  return `'${s.replace(/'/g, `'"'"'`)}'`;
}

const CMD_SPECIAL = /[&|<>^"()%!]/;

/**
 * cmd.exe quoting: words with a special character or whitespace are double-quoted, with `^`
 * and `"` caret-escaped and `%` doubled inside. `!` stays literal (no delayed expansion).
 * An empty word is `""` so it still counts as an argument; a line break cannot be carried by
 * a cmd.exe command line at all, so it is refused rather than dropped.
 */
function cmdWord(s: string): string {
  if (/[\r\n]/.test(s)) throw valueError("repr_cmd(): a cmd.exe argument cannot contain a line break");
  if (s !== "" && !CMD_SPECIAL.test(s) && ![...s].some(isSpaceChar)) return s;
  return `"${s.replace(/[\^"]/g, "^$&").replace(/%/g, "%%")}"`;
}

/** PowerShell single-quoted string: every quote character PowerShell accepts as `'` is doubled. */
function pwshString(s: string): string {
  return `'${s.replace(/['\u2018\u2019\u201a\u201b]/g, "$&$&")}'`;
}

function pwsh(value: ExprValue): string {
  switch (value.kind) {
    case "null":
      return "$null";
    case "bool":
      return value.value ? "$true" : "$false";
    case "string":
    case "path":
      return pwshString(value.value);
    case "range_expr":
      return pwshString(value.value.toString());
    case "list":
      // `@(@(1, 2))` flattens in PowerShell; the unary comma keeps a lone inner array nested.
      if (value.items.length === 1 && value.items[0]?.kind === "list") return `@(,${pwsh(value.items[0])})`;
      return `@(${value.items.map(pwsh).join(", ")})`;
    default:
      return toText(value);
  }
}

const words = (value: ExprValue, word: (s: string) => string): string => (value.kind === "list" ? value.items.map((item) => word(text(item))).join(" ") : word(text(value)));

export function registerRepr(lib: FunctionLibrary): void {
  const define = (name: string, signature: string, render: (value: ExprValue) => string) =>
    lib.define(name, signature, ([value], ctx) => {
      reserveRepr(value!, ctx);
      return stringValue(render(value!));
    });
  // Paths get their own overloads so `p.repr_sh()` works: a method receiver is never coerced.
  for (const signature of ["(string) -> string", "(path) -> string", "(list[string]) -> string", "(list[path]) -> string"]) {
    define("repr_sh", signature, (v) => words(v, shellWord));
    define("repr_cmd", signature, (v) => words(v, cmdWord));
  }
  define("repr_pwsh", "(any) -> string", pwsh);
  define("repr_py", "(any) -> string", python);
  define("repr_json", "(any) -> string", json);
}

/**
 * One line of action output → the OpenJD stdout message it carries, if any (spec digest §12.4,
 * reference behaviour §3.5). Pure: the caller logs the line (plus `annotation`, after registering
 * `redact` with the Redactor), applies the message, and cancels the action when `fatal` is set.
 * In lib/ because the portal reads the same messages from stored log lines (components/logs).
 */

/** What the Session runtime writes in place of a redacted value, in every line, status and message. */
export const REDACTION_MASK = "********";

export const LOG_LEVELS = ["DEBUG", "INFO", "WARNING", "ERROR"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type OpenjdMessage =
  | { kind: "progress"; value: number }
  | { kind: "status"; message: string }
  | { kind: "fail"; message: string }
  | { kind: "env"; name: string; value: string }
  | { kind: "redacted_env"; name: string; value: string }
  | { kind: "unset_env"; name: string }
  | { kind: "loglevel"; level: LogLevel };

export interface ParsedLine {
  message: OpenjdMessage | null;
  /** Text appended to the logged line, e.g. " -- ERROR: Failed to parse environment variable assignment." */
  annotation: string | null;
  /** The action must be canceled and marked failed: malformed env/unset/redacted directives inside an environment action, and env-directive near-misses (`OPENJD_ENV: x=1`, ` openjd_env: x=1`, `openjd_env:x=1`) in ANY action. */
  fatal: { failMessage: string } | null;
  /**
   * Secrets this line reveals, to register with the Redactor before the line (or its fail message)
   * is logged. Set for every openjd_redacted_env line, well-formed or not: a malformed one has no
   * message but must still not leak (spec digest §12.5).
   */
  redact: readonly string[];
}

const KINDS = ["progress", "status", "fail", "env", "unset_env", "redacted_env", "session_runtime_loglevel"] as const;
type Kind = (typeof KINDS)[number];

const ASSIGNMENT_ERROR = "Failed to parse environment variable assignment.";
const NAME_ERROR = "Failed to parse environment variable name.";
const PROGRESS_ERROR = "Progress must be a floating point value between 0.0 and 100.0, inclusive.";

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
// Python's `.` stops only at "\n", hence [^\n] rather than JS's narrower `.`.
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=[^\n]*$/;
const JSON_ASSIGNMENT = /^"[A-Za-z_][A-Za-z0-9_]*=[^\n]*$/;
// openjd-rs's rule: the name must be followed by a separator, so "openjd_environment_ready" is
// ordinary output (the 2024 Python reference's bare prefix test would fail that action).
const NEAR_MISS = /^openjd_(?:env|unset_env|redacted_env)(?:[:\s]|$)/;

// Python's str.isspace() set (lstrip/strip); float() accepts the same minus \x1c-\x1f.
// eslint-disable-next-line no-control-regex -- Python counts \x1c-\x1f as space
const PY_SPACE = /^[\t-\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]$/;
const isSpace = (ch: string) => PY_SPACE.test(ch);
const isFloatSpace = (ch: string) => PY_SPACE.test(ch) && !(ch >= "\x1c" && ch <= "\x1f");
const DIGITS = "[0-9](?:_?[0-9])*";
const PY_FLOAT = new RegExp(`^[+-]?(?:${DIGITS}(?:\\.(?:${DIGITS})?)?|\\.${DIGITS})(?:[eE][+-]?${DIGITS})?$`);

const PLAIN: ParsedLine = Object.freeze({ message: null, annotation: null, fatal: null, redact: Object.freeze([]) });

export function parseOutputLine(line: string, context: { inEnvironmentAction: boolean }): ParsedLine {
  const directive = splitDirective(line);
  if (!directive) return nearMiss(line) ?? PLAIN;
  const { kind, payload } = directive;
  switch (kind) {
    case "progress": {
      const value = pythonFloat(payload);
      if (value === null || !(value >= 0 && value <= 100)) return { ...PLAIN, annotation: error(PROGRESS_ERROR) };
      return { ...PLAIN, message: { kind, value: value + 0 } }; // + 0 turns -0 into 0
    }
    case "status":
    case "fail":
      return { ...PLAIN, message: { kind, message: payload } };
    case "env":
    case "redacted_env":
      return envDirective(lstrip(payload), kind === "redacted_env", context.inEnvironmentAction);
    case "unset_env": {
      const name = lstrip(payload);
      if (NAME.test(name)) return { ...PLAIN, message: { kind, name } };
      return malformed(NAME_ERROR, context.inEnvironmentAction, []);
    }
    case "session_runtime_loglevel": {
      const level = strip(payload.toUpperCase());
      if (isLogLevel(level)) return { ...PLAIN, message: { kind: "loglevel", level } };
      return { ...PLAIN, annotation: error(`Unknown log level: ${level}. Known values: ${LOG_LEVELS.join(",")}`) };
    }
  }
}

/** `openjd_<kind>: <payload>` at column 0, lowercase, exactly ": " and a non-empty payload. */
function splitDirective(line: string): { kind: Kind; payload: string } | null {
  if (!line.startsWith("openjd_")) return null;
  const colon = line.indexOf(": ", 7);
  if (colon < 0 || colon + 2 === line.length) return null;
  const kind = line.slice(7, colon);
  return isKind(kind) ? { kind, payload: line.slice(colon + 2) } : null;
}

/** A line that was meant as an env directive but is mis-typed: fatal in every action (§3.5). */
function nearMiss(line: string): ParsedLine | null {
  const trimmed = lstrip(line);
  const lower = trimmed.toLowerCase();
  if (!NEAR_MISS.test(lower)) return null;
  const failMessage = `Open Job Description: Incorrectly formatted openjd env command (${line})`;
  // Neither reference redacts a mis-typed openjd_redacted_env; its value is just as secret.
  let redact: string[] = [];
  if (lower.startsWith("openjd_redacted_env")) {
    const rest = trimmed.slice("openjd_redacted_env".length).replace(/^[:\s]+/, "");
    const equals = rest.indexOf("=");
    redact = secretOf(equals < 0 ? rest : rest.slice(equals + 1));
  }
  return { message: null, annotation: error(failMessage), fatal: { failMessage }, redact };
}

function envDirective(text: string, redacted: boolean, inEnvironmentAction: boolean): ParsedLine {
  const equals = text.indexOf("=");
  const fallbackSecret = redacted ? secretOf(equals < 0 ? text : text.slice(equals + 1)) : [];
  if (equals < 0) return malformed(ASSIGNMENT_ERROR, inEnvironmentAction, fallbackSecret);
  let name = text.slice(0, equals);
  let value = text.slice(equals + 1);
  if (!ASSIGNMENT.test(text)) {
    if (!JSON_ASSIGNMENT.test(text)) return malformed(ASSIGNMENT_ERROR, inEnvironmentAction, fallbackSecret);
    const decoded = decodeJsonString(text);
    // The reference reports a bad JSON form but does not fail the action for it.
    if (typeof decoded !== "string") return { ...PLAIN, annotation: error(decoded.error), redact: fallbackSecret };
    name = name.slice(1);
    value = decoded.slice(name.length + 1);
  }
  if (!redacted) return { ...PLAIN, message: { kind: "env", name, value } };
  // For the JSON form the escaped text is what an echo of the line shows, so it is secret too.
  const redact = [...new Set([...secretOf(value), ...fallbackSecret])];
  return { ...PLAIN, message: { kind: "redacted_env", name, value }, redact };
}

function malformed(message: string, inEnvironmentAction: boolean, redact: readonly string[]): ParsedLine {
  return { message: null, annotation: error(message), fatal: inEnvironmentAction ? { failMessage: message } : null, redact };
}

function error(message: string): string {
  return ` -- ERROR: ${message}`;
}

function secretOf(value: string): string[] {
  return value === "" ? [] : [value];
}

/**
 * Python's json.loads for a text starting with `"`. Every failure is reported the way the
 * reference runtime words it, whatever the actual JSON error: "Unterminated string starting at"
 * with the error's position.
 */
function decodeJsonString(text: string): string | { error: string } {
  const fail = (at: number) => ({ error: `Unterminated string starting at: line 1 column ${at + 1} (char ${at})` });
  let out = "";
  let i = 1;
  for (;;) {
    if (i >= text.length) return fail(0);
    const code = text.charCodeAt(i);
    if (code === 0x22) break;
    if (code < 0x20) return fail(i); // invalid control character
    if (code !== 0x5c) {
      out += text[i++];
      continue;
    }
    const escape = text[i + 1];
    if (escape === undefined) return fail(0);
    if (escape === "u") {
      const hex = text.slice(i + 2, i + 6);
      if (i + 6 >= text.length || !/^[0-9a-fA-F]{4}$/.test(hex)) return fail(i + 1); // invalid \uXXXX
      out += String.fromCharCode(parseInt(hex, 16)); // lone surrogates kept, pairs join up
      i += 6;
      continue;
    }
    const simple = JSON_ESCAPES[escape];
    if (simple === undefined) return fail(i); // invalid \escape
    out += simple;
    i += 2;
  }
  let end = i + 1;
  while (end < text.length && " \t\n\r".includes(text[end] as string)) end++;
  return end < text.length ? fail(end) : out; // extra data
}

const JSON_ESCAPES: Readonly<Record<string, string>> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

/** Python float(): padding, `_` between digits, any Unicode decimal digits; inf/nan are out of range anyway. */
function pythonFloat(text: string): number | null {
  const ascii = strip(asciiDigits(text), isFloatSpace);
  return PY_FLOAT.test(ascii) ? Number(ascii.replaceAll("_", "")) : null;
}

/** Unicode decimal digits come in runs of ten starting at zero, so a digit's value is its offset in its run. */
function asciiDigits(text: string): string {
  return text.replace(/(?![0-9])\p{Nd}/gu, (digit) => {
    const code = digit.codePointAt(0) as number;
    let zero = code;
    while (/\p{Nd}/u.test(String.fromCodePoint(zero - 1))) zero--;
    return String((code - zero) % 10);
  });
}

// Loops, not /\s+$/-style regexes: those backtrack quadratically on long runs of spaces.
function lstrip(text: string, space = isSpace): string {
  let start = 0;
  while (start < text.length && space(text[start] as string)) start++;
  return text.slice(start);
}

function strip(text: string, space = isSpace): string {
  const rest = lstrip(text, space);
  let end = rest.length;
  while (end > 0 && space(rest[end - 1] as string)) end--;
  return rest.slice(0, end);
}

function isKind(text: string): text is Kind {
  return (KINDS as readonly string[]).includes(text);
}

function isLogLevel(text: string): text is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(text);
}

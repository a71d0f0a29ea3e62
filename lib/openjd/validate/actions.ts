/** Actions, cancelation methods and embedded files (spec §5, §6). */
import { MAX_NOTIFY_PERIOD, type Action, type CancelationMethod, type CancelationModeField, type EmbeddedFile, type EndOfLine, type Path } from "../model";
import type { FormatString } from "../format-string";
import type { SourceNode } from "../source-node";
import { checkUnique, child, expectList, expectObject, field, namedItems, type ValidationContext } from "./context";
import { STRING, optional } from "../expr/types";
import { listItemTarget } from "../format-evaluation";
import { checkFormat, readFormat } from "./format-fields";
import { readIntField } from "./number-fields";
import { readBool, readEnum, readIdentifier, readString } from "./scalars";
import type { Scope } from "./scopes";

/**
 * @param scope host scope for command and args
 * @param templateScope scope of the fields resolved at job creation (timeout, mode, notify period); a
 *   wrap hook passes it with its `Wrapped*` symbols, and those fields then resolve on the worker
 */
export function checkAction(ctx: ValidationContext, node: SourceNode, path: Path, scope: Scope, templateScope: Scope): Action | null {
  const object = expectObject(ctx, node, path, { required: ["command"], optional: ["args", "timeout", "cancelation"] });
  if (!object) return null;
  const before = ctx.sink.count;
  const commandNode = field(object, "command");
  const command = commandNode && readFormat(ctx, commandNode, child(path, "command"), scope, { min: 1, control: "all" });
  let args: FormatString[] | undefined;
  const argsNode = field(object, "args");
  if (argsNode !== undefined) {
    // The spec does not forbid `args: []` and the conformance suite accepts it.
    const items = expectList(ctx, argsNode, child(path, "args"), { min: 0 });
    args = [];
    items?.forEach((item, i) => {
      // The spec's <ArgString> forbids control characters without EXPR, but the conformance
      // suite's base job tests pass multi-line scripts as args; the suite is our yardstick.
      const arg = readFormat(ctx, item, child(child(path, "args"), i), scope, { control: "description" }, listItemTarget(STRING));
      if (arg) args?.push(arg);
    });
  }
  const timeoutNode = field(object, "timeout");
  const timeout =
    timeoutNode &&
    readIntField(ctx, timeoutNode, child(path, "timeout"), {
      stringsNeed: "FEATURE_BUNDLE_1",
      scope: templateScope,
      check: (v) => (v > 0n ? null : "timeout must be a positive number of seconds"),
    });
  const cancelationNode = field(object, "cancelation");
  const cancelation = cancelationNode && checkCancelation(ctx, cancelationNode, child(path, "cancelation"), templateScope);
  if (ctx.sink.count !== before || !command) return null;
  const action: Action = { command, path };
  if (args) action.args = args;
  if (timeout) action.timeout = timeout;
  if (cancelation) action.cancelation = cancelation;
  return action;
}

function checkCancelation(ctx: ValidationContext, node: SourceNode, path: Path, templateScope: Scope): CancelationMethod | null {
  const object = expectObject(ctx, node, path, { required: ["mode"], optional: ["notifyPeriodInSeconds"] });
  if (!object) return null;
  const modeNode = field(object, "mode");
  const mode = modeNode && readMode(ctx, modeNode, child(path, "mode"), templateScope);
  if (!mode) return null;
  const periodNode = field(object, "notifyPeriodInSeconds");
  if (periodNode === undefined) return { mode };
  if (mode === "TERMINATE") {
    ctx.error(child(path, "notifyPeriodInSeconds"), "notifyPeriodInSeconds only applies to mode NOTIFY_THEN_TERMINATE", true);
    return null;
  }
  const period = readIntField(ctx, periodNode, child(path, "notifyPeriodInSeconds"), {
    stringsNeed: "FEATURE_BUNDLE_1",
    scope: templateScope,
    check: (v) => (v >= 1n && v <= BigInt(MAX_NOTIFY_PERIOD) ? null : `notifyPeriodInSeconds must be between 1 and ${MAX_NOTIFY_PERIOD}`),
  });
  return period ? { mode, notifyPeriodInSeconds: period } : null;
}

/**
 * A mode is one of the two names or, with FEATURE_BUNDLE_1, a format string resolved like the
 * other template-scope fields (in a wrap hook: on the worker). A whole-field expression is
 * `string?`; null drops the cancelation object.
 */
function readMode(ctx: ValidationContext, node: SourceNode, path: Path, templateScope: Scope): CancelationModeField | null {
  if (node.kind !== "string" || !node.value.includes("{{")) return readEnum(ctx, node, path, ["TERMINATE", "NOTIFY_THEN_TERMINATE"] as const);
  if (!ctx.gate(path, "a format string as cancelation mode", "FEATURE_BUNDLE_1", false)) return null;
  const format = checkFormat(ctx, node.value, path, templateScope, optional(STRING));
  return format && { kind: "format", format, path };
}

/** First pass over embedded files: their names, so scripts can reference them (and each other). */
export function embeddedFileNames(node: SourceNode | undefined): string[] {
  if (node?.kind !== "array") return [];
  const names: string[] = [];
  for (const item of node.items) {
    const name = item.kind === "object" ? item.entries.find((e) => e.key === "name")?.value : undefined;
    if (name?.kind === "string") names.push(name.value);
  }
  return names;
}

export function checkEmbeddedFiles(ctx: ValidationContext, node: SourceNode | undefined, path: Path, scope: Scope): EmbeddedFile[] {
  if (node === undefined) return [];
  const items = expectList(ctx, node, path);
  if (!items) return [];
  const files: EmbeddedFile[] = [];
  items.forEach((item, i) => {
    const file = checkEmbeddedFile(ctx, item, child(path, i), scope);
    if (file) files.push(file);
  });
  checkUnique(ctx, namedItems(items, path), "embedded file name");
  return files;
}

function checkEmbeddedFile(ctx: ValidationContext, node: SourceNode, path: Path, scope: Scope): EmbeddedFile | null {
  const object = expectObject(ctx, node, path, {
    required: ["name", "type", "data"],
    optional: ["filename", "runnable"],
    gated: { endOfLine: "FEATURE_BUNDLE_1" },
  });
  if (!object) return null;
  const before = ctx.sink.count;
  const nameNode = field(object, "name");
  const name = nameNode && readIdentifier(ctx, nameNode, child(path, "name"), "embedded file name");
  const typeNode = field(object, "type");
  if (typeNode) readEnum(ctx, typeNode, child(path, "type"), ["TEXT"] as const);
  const dataNode = field(object, "data");
  const data = dataNode && readFormat(ctx, dataNode, child(path, "data"), scope, { min: 1 });
  const filenameNode = field(object, "filename");
  const filename = filenameNode && readFilename(ctx, filenameNode, child(path, "filename"));
  const runnableNode = field(object, "runnable");
  const runnable = runnableNode ? readBool(ctx, runnableNode, child(path, "runnable")) : false;
  const eolNode = ctx.has("FEATURE_BUNDLE_1") ? field(object, "endOfLine") : undefined;
  const endOfLine = eolNode && readEnum<EndOfLine>(ctx, eolNode, child(path, "endOfLine"), ["AUTO", "LF", "CRLF"]);
  if (ctx.sink.count !== before || !name || !data) return null;
  const file: EmbeddedFile = { name, type: "TEXT", runnable: runnable ?? false, data, path };
  if (filename) file.filename = filename;
  if (endOfLine) file.endOfLine = endOfLine;
  return file;
}

/** A literal base name: it must not be able to leave the Session working directory. */
function readFilename(ctx: ValidationContext, node: SourceNode, path: Path): string | null {
  const value = readString(ctx, node, path, { min: 1, max: ctx.limits.filenameLength });
  if (value === null) return null;
  if (/[/\\]/.test(value) || value === "." || value === ".." || value.includes("\u0000")) {
    ctx.error(path, `filename '${value}' must be a plain file name (no '/', '\\', '.' or '..')`);
    return null;
  }
  return value;
}

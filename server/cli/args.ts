/**
 * A small argv parser for the `loom` verbs: positionals, boolean flags, flags with values and
 * repeatable flags (`-p K=V -p K2=V2`). Unknown flags are usage errors (exit code 2).
 */

export class UsageError extends Error {}

export interface FlagSpec {
  /** Flags that take a value; the value is the next argument or follows `=`. */
  values?: readonly string[];
  /** Value flags that may repeat (collected in order). */
  repeated?: readonly string[];
  booleans?: readonly string[];
  /** Short aliases, e.g. `{ "-p": "--job-param" }`. */
  aliases?: Readonly<Record<string, string>>;
}

export interface ParsedArgs {
  positionals: string[];
  values: Map<string, string>;
  repeated: Map<string, string[]>;
  booleans: Set<string>;
}

export function parseArgs(argv: readonly string[], spec: FlagSpec): ParsedArgs {
  const out: ParsedArgs = { positionals: [], values: new Map(), repeated: new Map(), booleans: new Set() };
  const takesValue = new Set([...(spec.values ?? []), ...(spec.repeated ?? [])]);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === "--") {
      out.positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      out.positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const rawName = eq > 0 && arg.startsWith("--") ? arg.slice(0, eq) : arg;
    const name = spec.aliases?.[rawName] ?? rawName;
    if (spec.booleans?.includes(name)) {
      if (eq > 0 && arg.startsWith("--")) throw new UsageError(`${name} does not take a value`);
      out.booleans.add(name);
      continue;
    }
    if (!takesValue.has(name)) throw new UsageError(`unknown option ${rawName}`);
    let value: string | undefined;
    if (eq > 0 && arg.startsWith("--")) value = arg.slice(eq + 1);
    else value = argv[++i];
    if (value === undefined) throw new UsageError(`${rawName} needs a value`);
    if (spec.repeated?.includes(name)) out.repeated.set(name, [...(out.repeated.get(name) ?? []), value]);
    else if (out.values.has(name)) throw new UsageError(`${rawName} given more than once`);
    else out.values.set(name, value);
  }
  return out;
}

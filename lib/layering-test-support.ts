/**
 * The reading behind lib/layering.test.ts: a source file's imports (every form: `import … from`,
 * `export … from`, side-effect `import "x"`, `import("x")`, `require("x")`) and its uses of
 * `process.env` (its SQL: layering-sql-test-support.ts), found in the code with comments removed and string literals blanked
 * (so an import written inside a test's string, or a comment that names `process.env`, is no use).
 * Pure functions over `{ path, source }` with repository-relative paths, so a test can plant a
 * violating file and see it flagged.
 */

export interface SourceFile {
  /** Relative to the repository root, with `/`. */
  path: string;
  source: string;
}

export interface ImportRef {
  specifier: string;
  /** `import type`, `export type`, or braces holding only `type` names: erased at build time. */
  typeOnly: boolean;
  line: number;
}

/** A scanned source: its code (comments gone, string contents blanked except import specifiers) and its string literals. */
export interface Scanned {
  code: string;
  /** Every string literal's text; a template literal whole, each `${…}` written as `HOLE`, so `\`DELETE FROM ${table}\`` reads as one statement. */
  strings: string[];
}

/** What a template literal's `${…}` reads as in `Scanned.strings`: it stands where a table, a column list or an assignment list would. */
export const HOLE = "${}";

const KEYWORDS_BEFORE_REGEX = /(?:^|[^\w$.])(?:return|typeof|case|do|else|in|of|new|delete|void|throw|yield|await)$/;
const SPECIFIER_BEFORE = /(?:\bfrom|\bimport|\bimport\s*\(|\brequire\s*\()\s*$/;

/**
 * One pass over the text, aware of strings, template literals (with `${}` nesting), regular
 * expression literals and comments. Blanked text keeps its length and newlines, so offsets and
 * line numbers stay true. JSX text is read as code: an apostrophe in it may blank the rest of that
 * text, which hides nothing these rules look for in the imports above it.
 */
export function scan(source: string): Scanned {
  const out: string[] = [];
  const strings: string[] = [];
  /** The last characters written, enough to decide what a quote or a slash starts. */
  let tail = "";
  const emit = (...parts: string[]) => {
    out.push(...parts);
    tail = (tail + parts.join("")).slice(-40);
  };
  const blank = (text: string) => text.replace(/[^\n]/g, " ");
  /** Depths of `${` openings we are inside, to know which `}` returns to a template literal. */
  const templateDepths: number[] = [];
  /** The text so far of each template literal we are inside, its holes written as `HOLE`. */
  const templateTexts: string[] = [];
  let depth = 0;
  let i = 0;
  while (i < source.length) {
    const c = source[i] as string;
    const next = source[i + 1];
    if (c === "/" && next === "/") {
      const end = source.indexOf("\n", i);
      const stop = end === -1 ? source.length : end;
      emit(blank(source.slice(i, stop)));
      i = stop;
    } else if (c === "/" && next === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end === -1 ? source.length : end + 2;
      emit(blank(source.slice(i, stop)));
      i = stop;
    } else if (c === '"' || c === "'") {
      let j = i + 1;
      while (j < source.length && source[j] !== c && source[j] !== "\n") j += source[j] === "\\" ? 2 : 1;
      const body = source.slice(i + 1, j);
      strings.push(body);
      const keep = SPECIFIER_BEFORE.test(tail);
      emit(c, keep ? body : blank(body), source[j] === c ? c : "");
      i = j + 1;
    } else if (c === "`" || (c === "}" && templateDepths.at(-1) === depth)) {
      const resumed = c === "}";
      if (resumed) templateDepths.pop();
      let j = i + 1;
      while (j < source.length && source[j] !== "`" && !(source[j] === "$" && source[j + 1] === "{")) j += source[j] === "\\" ? 2 : 1;
      const body = source.slice(i + 1, j);
      const text = (resumed ? `${templateTexts.pop() ?? ""}${HOLE}` : "") + body;
      // A template without `${` is a plain string: `import(\`node:fs\`)` names a module as surely as quotes do.
      const keep = !resumed && source[j] === "`" && SPECIFIER_BEFORE.test(tail);
      emit(c, keep ? body : blank(body));
      if (source[j] === "$") {
        emit("${");
        templateDepths.push(depth);
        templateTexts.push(text);
        i = j + 2;
      } else {
        strings.push(text);
        emit("`");
        i = j + 1;
      }
    } else if (c === "/" && startsRegex(tail)) {
      let j = i + 1;
      let inClass = false;
      while (j < source.length && source[j] !== "\n" && (inClass || source[j] !== "/")) {
        if (source[j] === "[") inClass = true;
        else if (source[j] === "]") inClass = false;
        j += source[j] === "\\" ? 2 : 1;
      }
      emit("/", blank(source.slice(i + 1, j)), "/");
      i = j + 1;
    } else {
      if (c === "{") depth++;
      else if (c === "}") depth--;
      emit(c);
      i++;
    }
  }
  return { code: out.join(""), strings };
}

/** A slash after an operator, an opening bracket or a keyword starts a regular expression; after a value it divides. `</` is JSX. */
function startsRegex(tail: string): boolean {
  const before = tail.trimEnd();
  if (before === "") return true;
  return /(?:[(,=:[!&|?{};+\-*%~^]|=>)$/.test(before) || KEYWORDS_BEFORE_REGEX.test(before);
}

const STATIC = /(?:^|[;}\n])\s*(import|export)\s+(type\s+)?([^;"'`]*?)\s*from\s*["']([^"']+)["']/g;
const BARE = /(?:^|[;}\n])\s*import\s*["']([^"']+)["']/g;
/** A computed specifier (a template with `${…}`) names no module this reading can check. */
const DYNAMIC = /\b(?:import|require)\s*\(\s*["'`]([^"'`\s$]+)["'`]\s*\)/g;

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let k = 0; k < offset; k++) if (text.charCodeAt(k) === 10) line++;
  return line;
}

/** Every module the file names, with whether the reference disappears at build time. */
export function importsOf(code: string): ImportRef[] {
  const refs: ImportRef[] = [];
  for (const m of code.matchAll(STATIC)) {
    const clause = m[3] as string;
    const braces = /^\{([^}]*)\}$/.exec(clause.trim());
    const names = braces
      ? (braces[1] as string)
          .split(",")
          .map((s) => s.trim())
          .filter((s) => s !== "")
      : [];
    const typeOnly = m[2] !== undefined || (names.length > 0 && names.every((n) => n.startsWith("type ")));
    refs.push({ specifier: m[4] as string, typeOnly, line: lineAt(code, (m.index ?? 0) + m[0].indexOf(m[1] as string)) });
  }
  for (const m of code.matchAll(BARE)) refs.push({ specifier: m[1] as string, typeOnly: false, line: lineAt(code, (m.index ?? 0) + m[0].indexOf("import")) });
  for (const m of code.matchAll(DYNAMIC)) refs.push({ specifier: m[1] as string, typeOnly: false, line: lineAt(code, m.index ?? 0) });
  return refs.sort((a, b) => a.line - b.line);
}

/** `a/b/../c` → `a/c`; a path above the root keeps its leading `..`. */
export function normalize(path: string): string {
  const parts: string[] = [];
  for (const part of path.split("/")) {
    if (part === "" || part === ".") continue;
    if (part === ".." && parts.length > 0 && parts.at(-1) !== "..") parts.pop();
    else parts.push(part);
  }
  return parts.join("/");
}

/** What a specifier names: a repository path (no extension, no `/index`), a Node module, or a package. */
export type Target = { kind: "file"; path: string } | { kind: "node"; name: string } | { kind: "package"; name: string };

export function resolveTarget(fromPath: string, specifier: string, nodeBuiltins: ReadonlySet<string>): Target {
  if (specifier.startsWith("node:")) return { kind: "node", name: specifier };
  let path: string | null = null;
  if (specifier.startsWith(".")) path = normalize(`${fromPath.split("/").slice(0, -1).join("/")}/${specifier}`);
  else if (specifier.startsWith("@/")) path = normalize(specifier.slice(2));
  if (path !== null) return { kind: "file", path: path.replace(/\.(?:tsx?|mjs|cjs|jsx?)$/, "").replace(/\/index$/, "") };
  const name = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : (specifier.split("/")[0] as string);
  return nodeBuiltins.has(name) ? { kind: "node", name: specifier } : { kind: "package", name };
}

/** The folders of server/ (DESIGN "Layout" and README); a file directly in server/ is a process helper ("server/root"). */
const SERVER_FOLDERS = ["api", "auth", "checks", "cli", "context", "db", "farm-tests", "queries", "router", "scheduler", "services", "session", "store", "web", "worker"];

/** The layer a repository path (a file, or what an import names) belongs to. */
export function areaOf(path: string): string {
  const [top, second] = path.split("/");
  if (top === "lib") return second === "openjd" ? "lib/openjd" : "lib";
  if (top === "server") {
    if (second !== undefined && SERVER_FOLDERS.includes(second)) return `server/${second}`;
    return path.split("/").length === 2 ? "server/root" : `server/${second} (a folder the layering rules do not know)`;
  }
  return path.includes("/") ? (top as string) : "root";
}

/** Test and benchmark code: exempt from the layer rules (a test may set up a farm through any layer), not from the lib/openjd index rule. */
const TEST_SUPPORT_FILES = new Set(["server/auth/test-principals.ts", "server/router/authz-matrix-fixtures.ts", "server/worker/fake-farm.ts"]);
export function isTestCode(path: string): boolean {
  return /\.(?:test|spec)\.tsx?$|\.test-child\.ts$|-test-support\.ts$/.test(path) || /^(?:server\/farm-tests|lib\/openjd\/testing|e2e|bench)\//.test(path) || TEST_SUPPORT_FILES.has(path);
}

/** What runs in the product: the app, its components, lib/, server/ and the two root files Next.js loads. */
export function isProductCode(path: string): boolean {
  return !isTestCode(path) && (/^(?:app|components|lib|server)\//.test(path) || path === "instrumentation.ts" || path === "next.config.ts");
}

/** Every server area, for the two grants DESIGN makes wholesale: server/cli imports "any of the above"; app/ and components/ import types from anywhere in server/. */
export const ALL_SERVER: readonly string[] = ["server/root", ...SERVER_FOLDERS.filter((f) => f !== "farm-tests").map((f) => `server/${f}`)];
/** Packages that must never reach the browser (or lib/, which the browser loads). */
const SERVER_PACKAGES = /^(?:better-sqlite3|drizzle-orm|drizzle-kit|pg|postgres|server-only)$/;
/** Database drivers and the query builder: server/worker and server/session never touch the database (DESIGN), not even for a type. */
const DATABASE_PACKAGES = /^(?:better-sqlite3|drizzle-orm|drizzle-kit|pg|postgres)$/;

export interface AreaRule {
  /** Areas it may import from (values or types); an area may always import itself. */
  may: readonly string[];
  /** Areas it may import types from (erased at build time) but no values. */
  typesFrom?: readonly string[];
  /** Whether Node modules are allowed. */
  node: boolean;
  /** Whether it is loaded in the browser (no server-only packages). */
  browser?: boolean;
  /** Whether it keeps away from the database (no driver or query builder package). */
  noDatabase?: boolean;
}

/**
 * DESIGN.md "Layout" as data, for production code, kept tight: layering.test.ts reports an
 * allowance no file uses (drop it, or add it back when a file needs it and DESIGN agrees) and a
 * cycle in `may` that is not one of its named exceptions. The table predates server/auth,
 * server/checks, server/queries, server/api, server/web and server/store; their rows say what
 * they need today, with nothing imported from a layer above them (router, api, web, cli).
 * `root` is the two root files Next.js loads.
 */
export const LAYOUT: Readonly<Record<string, AreaRule>> = {
  "lib/openjd": { may: [], node: false, browser: true },
  lib: { may: [], node: false, browser: true },
  "server/root": { may: [], node: true },
  "server/session": { may: ["lib", "lib/openjd", "server/root"], node: true, noDatabase: true },
  "server/db": { may: ["lib", "server/root"], node: true },
  "server/context": { may: ["server/db", "server/root", "server/scheduler", "server/store"], node: true },
  "server/store": { may: ["lib", "server/db"], node: true },
  "server/scheduler": { may: ["lib", "lib/openjd", "server/db", "server/store"], node: true },
  "server/services": { may: ["lib", "lib/openjd", "server/auth", "server/checks", "server/context", "server/db", "server/root", "server/scheduler", "server/store"], node: true },
  "server/checks": { may: ["lib", "lib/openjd", "server/context", "server/root", "server/services"], node: true },
  "server/auth": { may: ["lib", "server/context", "server/services", "server/store"], typesFrom: ["server/router"], node: true },
  "server/queries": { may: ["lib", "lib/openjd", "server/checks", "server/context", "server/db", "server/scheduler", "server/store"], node: true },
  "server/router": { may: ["lib", "lib/openjd", "server/auth", "server/context", "server/queries", "server/services"], typesFrom: ["server/store"], node: true },
  "server/api": { may: ["lib", "server/auth", "server/context", "server/queries", "server/router", "server/services"], node: true },
  "server/web": { may: ["server/api", "server/checks", "server/services"], node: true },
  "server/worker": { may: ["lib", "lib/openjd", "server/root", "server/session"], node: true, noDatabase: true },
  "server/cli": { may: ["lib", "lib/openjd", ...ALL_SERVER], node: true },
  components: { may: ["lib", "lib/openjd"], typesFrom: ALL_SERVER, node: false, browser: true },
  app: { may: ["lib", "components"], typesFrom: ALL_SERVER, node: false, browser: true },
  root: { may: ["server/root", "server/services"], node: true },
};

/** The allowances DESIGN grants wholesale (listed whole here), which the used-allowance check leaves alone: `area -> target`. */
export function isWholesaleGrant(area: string, target: string): boolean {
  return ALL_SERVER.includes(target) && (area === "server/cli" || area === "app" || area === "components");
}

/** The allowances of a layout table no import used (`area -> target`, `types` for a types-only one), DESIGN's wholesale grants aside. */
export function unusedAllowances(layout: Readonly<Record<string, AreaRule>>, used: ReadonlySet<string>): string[] {
  return Object.entries(layout).flatMap(([area, rule]) =>
    [...rule.may.map((to) => ({ to, kind: "" })), ...(rule.typesFrom ?? []).map((to) => ({ to, kind: " (types)" }))]
      .filter(({ to }) => !isWholesaleGrant(area, to) && !used.has(`${area} -> ${to}`))
      .map(({ to, kind }) => `${area} -> ${to}${kind}`),
  );
}

type Excepted = readonly { from: string; to: string }[];

/** The shortest `may` path from one area to another (a step at least), with the excepted edges set apart; null when there is none. */
export function mayPath(layout: Readonly<Record<string, AreaRule>>, from: string, to: string, except: Excepted = []): string[] | null {
  const next = (area: string) => (layout[area]?.may ?? []).filter((step) => step !== area && !except.some((e) => e.from === area && e.to === step));
  const cameFrom = new Map<string, string>();
  const queue = [from];
  for (let k = 0; k < queue.length; k++) {
    const area = queue[k] as string;
    for (const step of next(area)) {
      if (cameFrom.has(step)) continue;
      cameFrom.set(step, area);
      if (step === to) {
        const path = [to];
        while (path[0] !== from) path.unshift(cameFrom.get(path[0] as string) as string);
        return path;
      }
      queue.push(step);
    }
  }
  return null;
}

/** The cycles of a layout table's `may` relation (an area importing itself aside) once the excepted edges are set apart, each as `a -> b -> a`, one per edge on a cycle. */
export function mayCycles(layout: Readonly<Record<string, AreaRule>>, except: Excepted): string[] {
  return Object.entries(layout).flatMap(([area, rule]) =>
    rule.may.flatMap((to) => {
      if (to === area || except.some((e) => e.from === area && e.to === to)) return [];
      const back = mayPath(layout, to, area, except);
      return back === null ? [] : [[area, ...back].join(" -> ")];
    }),
  );
}

/**
 * RSC glue: the app/ files that run only on the server and so may call server/ (CONVENTIONS:
 * they say `import "server-only"`), and route handlers, which Next.js never bundles for the browser.
 */
export function isRscGlue(path: string, code: string): boolean {
  return path.startsWith("app/") && (/(?:^|\/)route\.ts$/.test(path) || /(?:^|[;\n])\s*import\s*["']server-only["']/.test(code));
}

export interface Problem {
  rule: string;
  path: string;
  line: number;
  message: string;
}

export interface CheckOptions {
  nodeBuiltins: ReadonlySet<string>;
  /** Filled with the allowances (`area -> target`) the file's imports use, for the check that the table stays tight. */
  usedAllowances?: Set<string>;
}

/** Whether a path an import resolves to (no extension, no `/index`) is a test or test support file. */
function isTestTarget(path: string): boolean {
  return isTestCode(`${path}.ts`) || isTestCode(`${path}/index.ts`);
}

/** Every broken import rule in one file: the layout table, Node modules and server-only packages, lib/openjd's index, and test code kept out of the product. */
export function layeringProblems(file: SourceFile, options: CheckOptions): Problem[] {
  const { code } = scan(file.source);
  const problems: Problem[] = [];
  const area = areaOf(file.path);
  const rule = LAYOUT[area];
  const layered = isProductCode(file.path) || (area.startsWith("lib") && !/\.test\.tsx?$/.test(file.path));
  const glue = isRscGlue(file.path, code);
  for (const ref of importsOf(code)) {
    const target = resolveTarget(file.path, ref.specifier, options.nodeBuiltins);
    const report = (name: string, message: string) => problems.push({ rule: name, path: file.path, line: ref.line, message: `${ref.specifier}: ${message}` });
    if (target.kind === "file" && area !== "lib/openjd" && areaOf(target.path) === "lib/openjd") {
      if (target.path === "lib/openjd/testing") {
        if (!isTestCode(file.path)) report("openjd-index", "lib/openjd/testing is for tests and benchmarks");
      } else if (target.path !== "lib/openjd") report("openjd-index", "import lib/openjd through its index");
    }
    // Exempt by name, tests and their support would otherwise carry anything into the product.
    if (target.kind === "file" && isProductCode(file.path) && isTestTarget(target.path) && target.path !== "lib/openjd/testing")
      report("test-code", "product code may not import tests or test support");
    if (!layered || glue) continue;
    if (rule === undefined) {
      report("layout", `${area} has no row in the layering rules`);
    } else if (target.kind === "node") {
      if (!rule.node) report("layout", `${area} may not import Node modules`);
    } else if (target.kind === "package") {
      if (rule.browser && SERVER_PACKAGES.test(target.name)) report("layout", `${area} is loaded in the browser: no server-only packages`);
      else if (rule.noDatabase && DATABASE_PACKAGES.test(target.name)) report("layout", `${area} never touches the database: no database packages`);
    } else {
      const to = areaOf(target.path);
      if (to === area) continue;
      const allowed = rule.may.includes(to) || (ref.typeOnly && rule.typesFrom?.includes(to) === true);
      if (allowed) options.usedAllowances?.add(`${area} -> ${to}`);
      else report("layout", rule.typesFrom?.includes(to) ? `${area} may import only types from ${to}` : `${area} may not import ${to}`);
    }
  }
  return problems;
}

/** `node:process` (or `process`) named in a specifier; scan keeps specifiers, so this reads the code. */
const PROCESS_MODULE = String.raw`["'\x60](?:node:)?process["'\x60]`;
const PROCESS_CALL = String.raw`(?:require|import)\s*\(\s*${PROCESS_MODULE}\s*\)`;
/** Reading `env` off an expression: `.env`, a computed member (which could be anything), or destructuring it. */
const readsEnv = (expression: string) => String.raw`(?<![\w$.])${expression}\s*\)?\s*(?:\.\s*env\b|\[)|\{[^}]*\benv\b[^}]*\}\s*=\s*(?:await\s+)?${expression}`;
const STATIC_PROCESS_IMPORT = new RegExp(String.raw`\b(?:import|export)\s+(?:type\s+)?([^;"'\x60]*?)\s*from\s*${PROCESS_MODULE}`, "g");
const PROCESS_ALIAS = new RegExp(String.raw`\b(?:const|let|var)\s+([\w$]+)\s*=\s*(?:await\s+)?(?:(?:globalThis\s*\.\s*)?process\b|${PROCESS_CALL})(?!\s*[.[])`, "g");

const escapeName = (name: string) => name.replace(/\$/g, "\\$");

/**
 * Reading the environment outside server/env.ts (CONVENTIONS: only server/env.ts reads it;
 * everything else takes options), however `process` is reached: the global, `node:process`
 * imported whole, by name (`import { env }`) or through `require`/`import()`, and any alias of those.
 */
export function envProblems(file: SourceFile): Problem[] {
  if (!isProductCode(file.path) || file.path === "server/env.ts") return [];
  const { code } = scan(file.source);
  const offsets = new Set<number>();
  const aliases = ["process", "globalThis\\s*\\.\\s*process", PROCESS_CALL];
  for (const m of code.matchAll(STATIC_PROCESS_IMPORT)) {
    const clause = m[1] as string;
    if (/\benv\b/.test(clause)) offsets.add(m.index ?? 0);
    const whole = /^(?:\*\s*as\s+([\w$]+)|([\w$]+))/.exec(clause);
    if (whole) aliases.push(escapeName((whole[1] ?? whole[2]) as string));
  }
  for (const m of code.matchAll(PROCESS_ALIAS)) aliases.push(escapeName(m[1] as string));
  for (const alias of aliases) for (const m of code.matchAll(new RegExp(readsEnv(alias), "g"))) offsets.add(m.index ?? 0);
  const lines = new Set([...offsets].map((offset) => lineAt(code, offset)));
  return [...lines].sort((a, b) => a - b).map((line) => ({ rule: "env", path: file.path, line, message: "process.env: only server/env.ts reads it" }));
}

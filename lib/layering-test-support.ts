/**
 * The reading behind lib/layering.test.ts: a source file's imports (every form: `import … from`,
 * `export … from`, side-effect `import "x"`, `import("x")`, `require("x")`), its uses of
 * `process.env` and its SQL, found in the code with comments removed and string literals blanked
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
  strings: string[];
}

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
      if (c === "}") templateDepths.pop();
      let j = i + 1;
      while (j < source.length && source[j] !== "`" && !(source[j] === "$" && source[j + 1] === "{")) j += source[j] === "\\" ? 2 : 1;
      strings.push(source.slice(i + 1, j));
      emit(c, blank(source.slice(i + 1, j)));
      if (source[j] === "$") {
        emit("${");
        templateDepths.push(depth);
        i = j + 2;
      } else {
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
const DYNAMIC = /\b(?:import|require)\s*\(\s*["']([^"']+)["']\s*\)/g;

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

const LIB = ["lib", "lib/openjd"];
const ALL_SERVER = ["server/root", ...SERVER_FOLDERS.filter((f) => f !== "farm-tests").map((f) => `server/${f}`)];
/** Packages that must never reach the browser (or lib/, which the browser loads). */
const SERVER_PACKAGES = /^(?:better-sqlite3|drizzle-orm|drizzle-kit|pg|postgres|server-only)$/;

interface AreaRule {
  /** Areas it may import from (values or types). */
  may: readonly string[];
  /** Areas it may import types from (erased at build time) but no values. */
  typesFrom?: readonly string[];
  /** Whether Node modules are allowed. */
  node: boolean;
  /** Whether it is loaded in the browser (no server-only packages). */
  browser?: boolean;
}

/**
 * DESIGN.md "Layout" as data, for production code. The table predates server/auth, server/checks,
 * server/queries, server/api, server/web and server/store; their rows say what they need today,
 * with nothing imported from a layer above them (router, api, web, cli).
 */
export const LAYOUT: Readonly<Record<string, AreaRule>> = {
  "lib/openjd": { may: LIB, node: false, browser: true },
  lib: { may: LIB, node: false, browser: true },
  "server/root": { may: LIB, node: true },
  "server/session": { may: [...LIB, "server/session", "server/root"], node: true },
  "server/db": { may: [...LIB, "server/db", "server/root"], node: true },
  "server/context": { may: [...LIB, "server/db", "server/store", "server/scheduler", "server/context", "server/root"], node: true },
  "server/store": { may: [...LIB, "server/db", "server/store", "server/root"], node: true },
  "server/scheduler": { may: [...LIB, "server/context", "server/db", "server/store", "server/scheduler", "server/root"], node: true },
  "server/services": { may: [...LIB, "server/context", "server/db", "server/store", "server/scheduler", "server/services", "server/auth", "server/checks", "server/root"], node: true },
  "server/checks": { may: [...LIB, "server/context", "server/checks", "server/services", "server/root"], node: true },
  "server/auth": { may: [...LIB, "server/context", "server/auth", "server/db", "server/store", "server/services", "server/root"], typesFrom: ["server/router"], node: true },
  "server/queries": { may: [...LIB, "server/context", "server/db", "server/store", "server/scheduler", "server/checks", "server/queries", "server/root"], node: true },
  "server/router": { may: [...LIB, "server/context", "server/services", "server/queries", "server/auth", "server/router", "server/root"], typesFrom: ["server/store"], node: true },
  "server/api": { may: [...LIB, "server/context", "server/api", "server/auth", "server/queries", "server/router", "server/services", "server/root"], node: true },
  "server/web": { may: [...LIB, "server/context", "server/web", "server/api", "server/checks", "server/services", "server/root"], node: true },
  "server/worker": { may: [...LIB, "server/session", "server/worker", "server/root"], node: true },
  "server/cli": { may: [...LIB, ...ALL_SERVER], node: true },
  components: { may: [...LIB, "components"], typesFrom: ALL_SERVER, node: false, browser: true },
  app: { may: [...LIB, "app", "components"], typesFrom: ALL_SERVER, node: false, browser: true },
  root: { may: [...LIB, ...ALL_SERVER], node: true },
};

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
}

/** Every broken import rule in one file: the layout table, Node modules and server-only packages, and lib/openjd's index. */
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
    if (!layered || glue) continue;
    if (rule === undefined) {
      report("layout", `${area} has no row in the layering rules`);
    } else if (target.kind === "node") {
      if (!rule.node) report("layout", `${area} may not import Node modules`);
    } else if (target.kind === "package") {
      if (rule.browser && SERVER_PACKAGES.test(target.name)) report("layout", `${area} is loaded in the browser: no server-only packages`);
    } else {
      const to = areaOf(target.path);
      if (rule.may.includes(to)) continue;
      if (ref.typeOnly && rule.typesFrom?.includes(to)) continue;
      report("layout", rule.typesFrom?.includes(to) ? `${area} may import only types from ${to}` : `${area} may not import ${to}`);
    }
  }
  return problems;
}

/** `process.env` outside server/env.ts (CONVENTIONS: only server/env.ts reads it; everything else takes options). */
export function envProblems(file: SourceFile): Problem[] {
  if (!isProductCode(file.path) || file.path === "server/env.ts") return [];
  const { code } = scan(file.source);
  const problems: Problem[] = [];
  for (const m of code.matchAll(/\bprocess\s*\.\s*env\b|\{[^}]*\benv\b[^}]*\}\s*=\s*process\b/g)) {
    problems.push({ rule: "env", path: file.path, line: lineAt(code, m.index ?? 0), message: "process.env: only server/env.ts reads it" });
  }
  return problems;
}

const SQL_STATEMENT =
  /^\s*(?:SELECT\b|INSERT\s+(?:OR\s+\w+\s+)?INTO\b|UPDATE\s+\w+\s+SET\b|DELETE\s+FROM\b|CREATE\s+(?:UNIQUE\s+)?(?:TABLE|INDEX)\b|ALTER\s+TABLE\b|DROP\s+(?:TABLE|INDEX)\b|PRAGMA\b|SAVEPOINT\b|RELEASE\s+SAVEPOINT\b|WITH\s+\w+\s+AS\b)/;

/** How a file outside server/store and server/db touches SQL: prepared statements, drizzle query building, raw SQL text. */
export function sqlFindings(file: SourceFile, options: CheckOptions): string[] {
  if (!isProductCode(file.path) || /^server\/(?:store|db)\//.test(file.path)) return [];
  const { code, strings } = scan(file.source);
  const found = new Set<string>();
  // A call with an argument: Next.js's `app.prepare()` (and a bound reference to it) is not SQL.
  if (/\.\s*prepare\b(?!\s*\(\s*\)|\.bind\(\s*app\s*\))/.test(code)) found.add(".prepare(");
  if (/\bsql\s*`/.test(code)) found.add("sql`…`");
  if (/\bdb\s*\.\s*(?:select|selectDistinct|insert|update|delete)\s*\(|\bdb\s*\.\s*query\s*\./.test(code)) found.add("drizzle query");
  for (const ref of importsOf(code)) {
    const target = resolveTarget(file.path, ref.specifier, options.nodeBuiltins);
    if (target.kind === "package" && target.name === "drizzle-orm" && !ref.typeOnly) found.add("drizzle-orm import");
  }
  if (strings.some((s) => SQL_STATEMENT.test(s))) found.add("SQL text");
  return [...found];
}

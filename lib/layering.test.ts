/**
 * The house rules on imports, checked over every source of the repository (DESIGN.md "Layout",
 * CONVENTIONS.md "House rules"): each layer imports only what its row allows, lib/ and the
 * browser never load Node or server-only packages, code outside lib/openjd goes through its
 * index, product code never imports tests or their support, only server/env.ts reads
 * process.env, and no SQL lives outside server/store and server/db. The layout table itself stays
 * tight (no allowance unused) and acyclic (but for LAYOUT_CYCLES). The reading is in
 * layering-test-support.ts and layering-sql-test-support.ts; the second half (and
 * layering-sql.test.ts, for SQL) plants a violating file for every rule and sees it flagged, so a
 * rule that cannot fail would show here.
 */
import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { sqlFindings } from "./layering-sql-test-support";
import { areaOf, type AreaRule, envProblems, layeringProblems, LAYOUT, mayCycles, mayPath, type Problem, type SourceFile, unusedAllowances } from "./layering-test-support";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const options = { nodeBuiltins: new Set(builtinModules) };
const SKIPPED_FOLDERS = new Set(["node_modules", ".git", "data", "test-results", "playwright-report", "drizzle", "results"]);

/**
 * Today's known breaks, each with why: every other problem fails the test, and so does an entry
 * that no longer matches anything (remove it when the code is fixed).
 */
const LAYERING_EXCEPTIONS: readonly { rule: string; path: string; specifier: string; why: string }[] = [
  { rule: "layout", path: "app/layout.tsx", specifier: "@/server/auth/principal", why: "the root layout turns the principal into `me` itself; app/session.ts could hand it over" },
  {
    rule: "layout",
    path: "app/admin/retention/page.tsx",
    specifier: "@/server/services/farm-runtime",
    why: "reads the retention default from the farm's settings instead of through tRPC or app/session.ts",
  },
  {
    rule: "layout",
    path: "server/db/connection.ts",
    specifier: "../store/engine/sqlite-engine",
    why: "openStore still lives in server/db (it opens and migrates the file) and hands back the engine's SqliteStore, which it re-exports",
  },
  { rule: "layout", path: "server/db/connection.ts", specifier: "../store/engine/engine", why: "re-exports the engine's AsyncStore as Store, the type the farm's code names" },
  { rule: "env", path: "instrumentation.ts", specifier: "process.env", why: "Next.js's NEXT_RUNTIME check, which the bundler replaces with a constant" },
  { rule: "env", path: "next.config.ts", specifier: "process.env", why: "LOOM_NEXT_DIST_DIR: Next.js reads its config before any server module loads" },
];

/**
 * Product files that still hold SQL (prepared statements, drizzle queries or SQL text) outside
 * server/store and server/db. Issue 12 moves all of it into server/store: shrink this list to
 * empty as files move; a file that no longer holds SQL must leave it.
 */
const SQL_OUTSIDE_STORE_ALLOWED: readonly string[] = [];

/**
 * The two-way allowances of LAYOUT the code needs today, each with why: every other cycle in the
 * `may` relation fails the test, and so does an entry that no longer closes one. Each is one leaf
 * module used from the other side, so no module imports itself round the folders.
 */
const LAYOUT_CYCLES: readonly { from: string; to: string; why: string }[] = [
  {
    from: "server/auth",
    to: "server/services",
    why: "sign-in, accounts, access tokens and first start write audit entries through services/audit, which imports nothing of auth (services use only the leaf auth/secrets)",
  },
  {
    from: "server/checks",
    to: "server/services",
    why: "checks/read-bundle reads bundles through services/job-bundle, which imports no checks, and validate-submission names services/audit's Actor type",
  },
];

function repositorySources(dir = root): SourceFile[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) || entry.name.startsWith(".next") ? [] : repositorySources(path);
    return /\.(?:tsx?|mjs|cjs|js)$/.test(entry.name) ? [{ path: relative(root, path).split("\\").join("/"), source: readFileSync(path, "utf8") }] : [];
  });
}

const show = (p: Problem) => `${p.path}:${p.line} [${p.rule}] ${p.message}`;
const excepted = (p: Problem) => LAYERING_EXCEPTIONS.some((e) => e.rule === p.rule && e.path === p.path && p.message.startsWith(`${e.specifier}:`));

describe("the repository keeps the layering", () => {
  const files = repositorySources();
  const usedAllowances = new Set<string>();
  const problems = files.flatMap((file) => [...layeringProblems(file, { ...options, usedAllowances }), ...envProblems(file)]);

  it("reads every layer's sources", () => {
    const areas = new Set(files.map((f) => areaOf(f.path)));
    for (const area of ["lib/openjd", "lib", "server/session", "server/db", "server/store", "server/scheduler", "server/services", "server/worker", "components", "app"]) expect(areas).toContain(area);
    expect(files.length).toBeGreaterThan(500);
  });

  it.each([
    ["layout", "each layer imports only what DESIGN's layout table allows (type-only imports from server/ in app/ and components/ outside the RSC glue)"],
    ["openjd-index", "code outside lib/openjd imports it through lib/openjd (or lib/openjd/testing in tests)"],
    ["env", "only server/env.ts reads process.env"],
    ["test-code", "product code imports no test or test support file"],
  ])("%s: %s", (rule) => {
    expect(problems.filter((p) => p.rule === rule && !excepted(p)).map(show)).toEqual([]);
  });

  it("every listed exception is still needed", () => {
    const stale = LAYERING_EXCEPTIONS.filter((e) => !problems.some((p) => excepted(p) && p.path === e.path && p.rule === e.rule && p.message.startsWith(`${e.specifier}:`)));
    expect(stale.map((e) => `${e.path} ${e.specifier}`)).toEqual([]);
  });

  it("the layout table allows nothing no file uses (DESIGN's wholesale grants aside)", () => {
    expect(unusedAllowances(LAYOUT, usedAllowances)).toEqual([]);
  });

  it("the layout table's `may` has no cycle but the named LAYOUT_CYCLES, and each of those still closes one", () => {
    expect(mayCycles(LAYOUT, LAYOUT_CYCLES)).toEqual([]);
    expect(LAYOUT_CYCLES.filter((e) => !LAYOUT[e.from]?.may.includes(e.to) || mayPath(LAYOUT, e.to, e.from) === null).map((e) => `${e.from} -> ${e.to}`)).toEqual([]);
  });

  it("SQL lives only in server/store and server/db, apart from the files SQL_OUTSIDE_STORE_ALLOWED still lists", () => {
    const offenders = files.filter((file) => sqlFindings(file, options).length > 0).map((f) => f.path);
    const unexpected = offenders.filter((path) => !SQL_OUTSIDE_STORE_ALLOWED.includes(path));
    expect(unexpected.map((path) => `${path}: ${sqlFindings(files.find((f) => f.path === path) as SourceFile, options).join(", ")}`)).toEqual([]);
    expect(SQL_OUTSIDE_STORE_ALLOWED.filter((path) => !offenders.includes(path))).toEqual([]);
  });
});

/** The problems a planted file would raise, as `rule line: message`. */
function planted(path: string, ...lines: string[]): string[] {
  const file = { path, source: lines.join("\n") };
  return [...layeringProblems(file, options), ...envProblems(file)].map((p) => `${p.rule} ${p.line}: ${p.message}`);
}

describe("every rule can fail", () => {
  it("lib/: no Node module, nothing outside lib/, no server-only package, in every import form; strings and comments are not imports", () => {
    expect(
      planted(
        "lib/openjd/example.ts",
        'import { readFileSync } from "node:fs";',
        'import path from "path";',
        'import {\n  a,\n  b,\n} from "../../server/db/schema";',
        'export { c } from "../../components/c";',
        'import type { D } from "@/server/d";',
        'const lazy = import("fs/promises");',
        'const child = require("node:child_process");',
        'import "server-only";',
        'import Database from "better-sqlite3";',
        'import { z } from "zod";',
        'import { e } from "../farm/statuses";',
        "const text = 'import { f } from \"node:os\";';",
        '// import { g } from "node:net";',
        '/* export * from "../../server/h"; */',
        'const template = `import { i } from "node:tty"; ${"}"}`;',
      ),
    ).toEqual([
      "layout 1: node:fs: lib/openjd may not import Node modules",
      "layout 2: path: lib/openjd may not import Node modules",
      "layout 3: ../../server/db/schema: lib/openjd may not import server/db",
      "layout 7: ../../components/c: lib/openjd may not import components",
      "layout 8: @/server/d: lib/openjd may not import server/root",
      "layout 9: fs/promises: lib/openjd may not import Node modules",
      "layout 10: node:child_process: lib/openjd may not import Node modules",
      "layout 11: server-only: lib/openjd is loaded in the browser: no server-only packages",
      "layout 12: better-sqlite3: lib/openjd is loaded in the browser: no server-only packages",
      "layout 14: ../farm/statuses: lib/openjd may not import lib",
    ]);
    expect(planted("lib/farm/example.ts", 'import { h } from "node:crypto";', 'import type { J } from "./statuses";')).toEqual(["layout 1: node:crypto: lib may not import Node modules"]);
  });

  it("a template literal without `${` names a module like a string; one with `${` names none", () => {
    expect(planted("lib/farm/example.ts", "const fs = await import(`node:fs`);", "const os = require(`os`);", "const label = `node:path`;", "const lazy = import(`./${name}`);")).toEqual([
      "layout 1: node:fs: lib may not import Node modules",
      "layout 2: os: lib may not import Node modules",
    ]);
  });

  it("product code never imports tests or test support, exempt by name as they are", () => {
    expect(
      planted(
        "server/services/example.ts",
        'import { freshFarm } from "./farm-test-support";',
        'import { principals } from "../auth/test-principals";',
        'import { cases } from "./submit-job.test";',
        'const fake = await import("../worker/fake-farm.ts");',
        'import { submitJob } from "./submit-job";',
      ),
    ).toEqual([
      "test-code 1: ./farm-test-support: product code may not import tests or test support",
      "test-code 2: ../auth/test-principals: product code may not import tests or test support",
      "test-code 3: ./submit-job.test: product code may not import tests or test support",
      "test-code 4: ../worker/fake-farm.ts: product code may not import tests or test support",
      "layout 4: ../worker/fake-farm.ts: server/services may not import server/worker",
    ]);
    expect(planted("lib/farm/example.ts", 'import { scan } from "../layering-test-support";')).toEqual(["test-code 1: ../layering-test-support: product code may not import tests or test support"]);
    expect(planted("components/jobs/example.tsx", 'import { rows } from "@/components/jobs/job-view.test";')).toHaveLength(1);
    expect(planted("server/services/example.test.ts", 'import { freshFarm } from "./farm-test-support";')).toEqual([]);
    expect(planted("server/services/farm-test-support.ts", 'import { principals } from "../auth/test-principals";')).toEqual([]);
  });

  it("server/session: lib/, Node and server/env.ts, nothing else of the server", () => {
    expect(
      planted(
        "server/session/example.ts",
        'import { spawn } from "node:child_process";',
        'import { processEnvironment } from "../env";',
        'import type { Job } from "../../lib/openjd";',
        'import { openStore } from "../db/connection";',
        'import { agent } from "../worker/agent";',
      ),
    ).toEqual(["layout 4: ../db/connection: server/session may not import server/db", "layout 5: ../worker/agent: server/session may not import server/worker"]);
  });

  it("server/db and server/store: only lib/ (and the store its schema)", () => {
    expect(
      planted("server/db/example.ts", 'import { Store } from "../store/store";', 'import type { Farm } from "../services/farm";', 'import { TASK_STATUSES } from "../../lib/farm/statuses";'),
    ).toEqual(["layout 1: ../store/store: server/db may not import server/store", "layout 2: ../services/farm: server/db may not import server/services"]);
    expect(planted("server/store/example.ts", 'import * as schema from "../db/schema";', 'import { submitJob } from "../services/submit-job";')).toEqual([
      "layout 2: ../services/submit-job: server/store may not import server/services",
    ]);
  });

  it("server/scheduler: lib/, server/db and server/store, never services or the router", () => {
    expect(
      planted(
        "server/scheduler/example.ts",
        'import type { Db } from "../db/connection";',
        'import { Store } from "../store/store";',
        'import { getFarm } from "../services/farm-runtime";',
        'import { appRouter } from "../router";',
      ),
    ).toEqual(["layout 3: ../services/farm-runtime: server/scheduler may not import server/services", "layout 4: ../router: server/scheduler may not import server/router"]);
  });

  it("server/worker and server/session never touch the database: no driver or query builder, not even for a type", () => {
    expect(
      planted(
        "server/worker/example.ts",
        'import Database from "better-sqlite3";',
        'import { Pool } from "pg";',
        'import type { SQL } from "drizzle-orm";',
        'const { eq } = await import("drizzle-orm/sql");',
        'import { z } from "zod";',
      ),
    ).toEqual([
      "layout 1: better-sqlite3: server/worker never touches the database: no database packages",
      "layout 2: pg: server/worker never touches the database: no database packages",
      "layout 3: drizzle-orm: server/worker never touches the database: no database packages",
      "layout 4: drizzle-orm/sql: server/worker never touches the database: no database packages",
    ]);
    expect(planted("server/session/example.ts", 'import postgres from "postgres";')).toEqual(["layout 1: postgres: server/session never touches the database: no database packages"]);
    expect(planted("server/store/example.ts", 'import Database from "better-sqlite3";', 'import { eq } from "drizzle-orm";')).toEqual([]);
  });

  it("server/worker: never server/db, server/store or server/services, not even their types", () => {
    expect(
      planted(
        "server/worker/example.ts",
        'import { Session } from "../session/session";',
        'import type { Db } from "../db/connection";',
        'import { Store } from "../store/store";',
        'import { syncWorker } from "../services/sync-worker";',
        'import { agentSettings } from "../env";',
      ),
    ).toEqual([
      "layout 2: ../db/connection: server/worker may not import server/db",
      "layout 3: ../store/store: server/worker may not import server/store",
      "layout 4: ../services/sync-worker: server/worker may not import server/services",
    ]);
  });

  it("components/: only type imports from server/, no Node, nothing from app/", () => {
    expect(
      planted(
        "components/jobs/example.tsx",
        'import type { JobRow } from "@/server/queries/jobs";',
        'import { type A, type B } from "@/server/context/farm";',
        'import { listJobs, type C } from "@/server/queries/jobs";',
        'import { readFile } from "node:fs/promises";',
        'import { HydrateClient } from "@/app/trpc-server";',
        'import { RULES } from "@/lib/farm/access";',
      ),
    ).toEqual([
      "layout 3: @/server/queries/jobs: components may import only types from server/queries",
      "layout 4: node:fs/promises: components may not import Node modules",
      "layout 5: @/app/trpc-server: components may not import app",
    ]);
  });

  it("app/: the same, except the RSC glue (files that import server-only, and route handlers)", () => {
    const callsTheFarm = 'import { getFarm } from "@/server/services/farm-runtime";';
    expect(planted("app/jobs/page.tsx", callsTheFarm)).toEqual(["layout 1: @/server/services/farm-runtime: app may import only types from server/services"]);
    expect(planted("app/glue.ts", 'import "server-only";', callsTheFarm)).toEqual([]);
    expect(planted("app/api/example/route.ts", callsTheFarm)).toEqual([]);
    expect(planted("app/jobs/page.tsx", '// import "server-only";', callsTheFarm)).toHaveLength(1);
  });

  it("a server folder the rules do not know is flagged until it gets a row", () => {
    expect(planted("server/reports/example.ts", 'import { z } from "zod";')).toEqual(["layout 1: zod: server/reports (a folder the layering rules do not know) has no row in the layering rules"]);
    expect(Object.keys(LAYOUT)).toContain("server/store");
  });

  it("the layout table: an allowance no import uses and a cycle in `may` outside the named exceptions are reported", () => {
    const table: Record<string, AreaRule> = {
      "server/a": { may: ["lib", "server/b"], node: true },
      "server/b": { may: ["server/c"], typesFrom: ["server/d"], node: true },
      "server/c": { may: ["server/a", "server/c"], node: true },
      "server/d": { may: ["server/b"], node: true },
      "server/cli": { may: ["server/db", "server/web"], node: true },
    };
    expect(mayCycles(table, [])).toEqual(["server/a -> server/b -> server/c -> server/a", "server/b -> server/c -> server/a -> server/b", "server/c -> server/a -> server/b -> server/c"]);
    expect(mayCycles(table, [{ from: "server/c", to: "server/a" }])).toEqual([]);
    expect(mayPath(table, "server/a", "server/c")).toEqual(["server/a", "server/b", "server/c"]);
    expect(mayPath(table, "server/a", "server/c", [{ from: "server/b", to: "server/c" }])).toBeNull();
    const used = new Set(["server/a -> server/b", "server/b -> server/c", "server/c -> server/a", "server/d -> server/b"]);
    expect(unusedAllowances(table, used)).toEqual(["server/a -> lib", "server/b -> server/d (types)", "server/c -> server/c"]);
  });

  it("lib/openjd through its index; lib/openjd/testing only from tests and benchmarks", () => {
    expect(
      planted(
        "components/editor/example.ts",
        'import type { TemplateError } from "@/lib/openjd/errors";',
        'import { checkTemplateText } from "@/lib/openjd";',
        'import { createOk } from "@/lib/openjd/testing";',
      ),
    ).toEqual(["openjd-index 1: @/lib/openjd/errors: import lib/openjd through its index", "openjd-index 3: @/lib/openjd/testing: lib/openjd/testing is for tests and benchmarks"]);
    expect(planted("server/cli/example.ts", 'import { createJob } from "../../lib/openjd/job/create-job";')).toEqual([
      "openjd-index 1: ../../lib/openjd/job/create-job: import lib/openjd through its index",
    ]);
    expect(planted("bench/example.ts", 'import { createOk } from "../lib/openjd/testing";', 'import { tokenize } from "../lib/openjd/index.ts";')).toEqual([]);
    expect(planted("server/cli/example.test.ts", 'import { parseSource } from "../../lib/openjd/parse-source";')).toHaveLength(1);
    expect(planted("lib/openjd/job/example.ts", 'import { parseSource } from "../parse-source";')).toEqual([]);
  });

  it("process.env only in server/env.ts, in code (not comments or strings), tests aside", () => {
    const reads = "const dataDir = process.env.LOOM_DATA_DIR;";
    expect(planted("server/services/example.ts", reads, "const { env } = process;")).toEqual(["env 1: process.env: only server/env.ts reads it", "env 2: process.env: only server/env.ts reads it"]);
    expect(planted("components/example.tsx", reads)).toHaveLength(1);
    expect(planted("server/env.ts", reads)).toEqual([]);
    expect(planted("server/services/example.ts", "// process.env is read by server/env.ts", 'const hint = "set process.env.LOOM_DATA_DIR";')).toEqual([]);
    expect(planted("server/services/example.test.ts", reads)).toEqual([]);
  });

  it("process.env however process is reached: imported by name or whole, required, imported late, aliased, or indexed", () => {
    expect(
      planted(
        "server/services/example.ts",
        'import { env } from "node:process";',
        'import * as proc from "process";',
        "const home = proc.env.HOME;",
        'const { env: required } = require("process");',
        'const viaRequire = require("node:process").env;',
        'const late = (await import("node:process")).env;',
        "const p = globalThis.process;",
        "const viaAlias = p.env;",
        'const computed = process["env"];',
        'import { argv } from "node:process";',
        "const args = process.argv.slice(2);",
        "const q = process;",
        "const exit = q.exitCode;",
      ),
    ).toEqual([1, 3, 4, 5, 6, 8, 9].map((line) => `env ${line}: process.env: only server/env.ts reads it`));
    expect(planted("server/env.ts", 'import { env } from "node:process";')).toEqual([]);
  });
});

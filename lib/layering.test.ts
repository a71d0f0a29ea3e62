/**
 * The house rules on imports, checked over every source of the repository (DESIGN.md "Layout",
 * CONVENTIONS.md "House rules"): each layer imports only what its row allows, lib/ and the
 * browser never load Node or server-only packages, code outside lib/openjd goes through its
 * index, only server/env.ts reads process.env, and no SQL lives outside server/store and
 * server/db. The reading is in layering-test-support.ts; the second half plants a violating file
 * for every rule and sees it flagged, so a rule that cannot fail would show here.
 */
import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { areaOf, envProblems, layeringProblems, LAYOUT, type Problem, type SourceFile, sqlFindings } from "./layering-test-support";

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
  { rule: "layout", path: "server/db/connection.ts", specifier: "../store/store", why: "openStore still lives in server/db and re-exports Store while the store moves into server/store" },
  { rule: "env", path: "instrumentation.ts", specifier: "process.env", why: "Next.js's NEXT_RUNTIME check, which the bundler replaces with a constant" },
  { rule: "env", path: "next.config.ts", specifier: "process.env", why: "LOOM_NEXT_DIST_DIR: Next.js reads its config before any server module loads" },
];

/**
 * Product files that still hold SQL (prepared statements, drizzle queries or SQL text) outside
 * server/store and server/db. Issue 12 moves all of it into server/store: shrink this list to
 * empty as files move; a file that no longer holds SQL must leave it.
 */
const SQL_OUTSIDE_STORE_ALLOWED: readonly string[] = [];

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
  const problems = files.flatMap((file) => [...layeringProblems(file, options), ...envProblems(file)]);

  it("reads every layer's sources", () => {
    const areas = new Set(files.map((f) => areaOf(f.path)));
    for (const area of ["lib/openjd", "lib", "server/session", "server/db", "server/store", "server/scheduler", "server/services", "server/worker", "components", "app"]) expect(areas).toContain(area);
    expect(files.length).toBeGreaterThan(500);
  });

  it.each([
    ["layout", "each layer imports only what DESIGN's layout table allows (type-only imports from server/ in app/ and components/ outside the RSC glue)"],
    ["openjd-index", "code outside lib/openjd imports it through lib/openjd (or lib/openjd/testing in tests)"],
    ["env", "only server/env.ts reads process.env"],
  ])("%s: %s", (rule) => {
    expect(problems.filter((p) => p.rule === rule && !excepted(p)).map(show)).toEqual([]);
  });

  it("every listed exception is still needed", () => {
    const stale = LAYERING_EXCEPTIONS.filter((e) => !problems.some((p) => excepted(p) && p.path === e.path && p.rule === e.rule && p.message.startsWith(`${e.specifier}:`)));
    expect(stale.map((e) => `${e.path} ${e.specifier}`)).toEqual([]);
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
    ]);
    expect(planted("lib/farm/example.ts", 'import { h } from "node:crypto";', 'import type { J } from "../openjd";')).toEqual(["layout 1: node:crypto: lib may not import Node modules"]);
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

  it("SQL outside server/store and server/db: prepared statements, drizzle query building and SQL text", () => {
    const sql = (path: string, ...lines: string[]) => sqlFindings({ path, source: lines.join("\n") }, options);
    expect(sql("server/services/example.ts", 'const row = farm.sqlite.prepare<[string], { id: string }>("SELECT id FROM jobs WHERE id = ?").get(id);')).toEqual([".prepare(", "SQL text"]);
    expect(sql("server/queries/example.ts", 'import { eq } from "drizzle-orm";', "const rows = farm.db.select().from(jobs).where(eq(jobs.id, id)).all();")).toEqual([
      "drizzle query",
      "drizzle-orm import",
    ]);
    expect(sql("server/services/example.ts", "const stmt = `\n  UPDATE tasks SET status = ? WHERE id = ?`;")).toEqual(["SQL text"]);
    expect(sql("server/router/example.ts", "const total = sql`count(*)`;")).toEqual(["sql`…`"]);
    expect(sql("server/store/jobs.ts", 'const find = sqlite.prepare("SELECT * FROM jobs");')).toEqual([]);
    expect(sql("server/db/connection.ts", 'sqlite.prepare("PRAGMA journal_mode")')).toEqual([]);
    expect(sql("server/services/example.test.ts", 'farm.sqlite.prepare("DELETE FROM jobs").run();')).toEqual([]);
    expect(
      sql("server/web/example.ts", "await app.prepare();", "// farm.sqlite.prepare(...) lives in server/store", 'const label = "Select a job";', 'import type { SQL } from "drizzle-orm";'),
    ).toEqual([]);
  });
});

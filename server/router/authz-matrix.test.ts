/**
 * The authorization matrix, generated from the router itself: every procedure (queries,
 * mutations, subscriptions) × anonymous, viewer, artist (owner of the seeded job and template),
 * another artist, wrangler and admin, each called on a fresh farm with a valid input, against the
 * verdict written down by hand in authz-matrix-fixtures.ts. Refused means a TRPCError coded
 * UNAUTHORIZED or FORBIDDEN; allowed means the call succeeded (an allowed call failing otherwise is
 * a fixture bug, and fails too). A procedure without a row or a fixture fails it, and so does a
 * procedure built without a rule: router() refuses it (the last describe).
 */
import { initTRPC, TRPCError } from "@trpc/server";
import { afterAll, describe, expect, it } from "vitest";
import { RULES } from "../../lib/farm/access";
import type { Farm } from "../context/farm";
import { sqliteOf } from "../store/store-test-support";
import { CALLERS, EXPECTED, FIXTURES, seedFarm, type CallerKey, type Verdict } from "./authz-matrix-fixtures";
import { appRouter } from "./index";
import { authorized, callerContext, createCallerFactory, router } from "./trpc";

type Outcome = { verdict: Verdict; detail: string } | { verdict: "broken"; detail: string };

const PROCEDURES = appRouter._def.procedures as unknown as Record<string, { _def: { type: "query" | "mutation" | "subscription" } }>;
const PATHS = Object.keys(PROCEDURES).sort();
const factory = createCallerFactory(appRouter);
const results = new Map<string, Outcome>();

/** Calls `path` as `caller` on a fresh farm; a subscription is started and its first item read. */
async function cell(path: string, caller: CallerKey): Promise<Outcome> {
  const fixture = FIXTURES[path];
  if (!fixture) return { verdict: "broken", detail: "no fixture" };
  const seed = await seedFarm();
  await fixture.prepare?.(seed);
  const principal = caller === "anonymous" ? null : seed.people[caller];
  const controller = new AbortController();
  const api = factory(callerContext(seed.farm, principal), { signal: controller.signal });
  const procedure = path.split(".").reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], api) as (input: unknown) => Promise<unknown>;
  try {
    const result = await procedure(await fixture.input(seed, caller));
    if (PROCEDURES[path]!._def.type === "subscription") {
      const iterator = (result as AsyncIterable<unknown>)[Symbol.asyncIterator]();
      const first = await iterator.next();
      controller.abort();
      await iterator.return?.();
      if (first.done) return { verdict: "broken", detail: "the subscription ended without an item" };
    }
    if (result !== null && typeof result === "object" && (result as { ok?: unknown }).ok === false) return { verdict: "broken", detail: `answered ok: false: ${JSON.stringify(result).slice(0, 300)}` };
    return { verdict: "allow", detail: "ok" };
  } catch (error) {
    if (error instanceof TRPCError && (error.code === "UNAUTHORIZED" || error.code === "FORBIDDEN")) {
      // A signed-in caller's refused change is an audit row.
      if (principal && PROCEDURES[path]!._def.type === "mutation" && !refusalAudited(seed.farm, path))
        return { verdict: "broken", detail: `refused without an access.refused audit row: ${error.message}` };
      return { verdict: "refuse", detail: `${error.code}: ${error.message}` };
    }
    const code = error instanceof TRPCError ? error.code : "throw";
    return { verdict: "broken", detail: `${code}: ${error instanceof Error ? error.message : String(error)}` };
  } finally {
    controller.abort();
  }
}

function refusalAudited(farm: Farm, path: string): boolean {
  return sqliteOf(farm.store).prepare<[string], { n: number }>("SELECT COUNT(*) AS n FROM audit_log WHERE action = 'access.refused' AND target_id = ? AND outcome = 'refused'").get(path)!.n > 0;
}

function mark(expected: Verdict | undefined, outcome: Outcome | undefined): string {
  if (!outcome) return "?";
  if (outcome.verdict === "broken") return "ERR";
  const sign = outcome.verdict === "allow" ? "yes" : "no";
  return outcome.verdict === expected ? sign : `${sign}!`;
}

/** The whole matrix as text: yes/no as observed, "!" where it differs from the expectation. */
function matrixText(): string {
  const width = Math.max(...PATHS.map((p) => p.length));
  const lines = [`${"procedure".padEnd(width)}  ${CALLERS.map((c) => c.padEnd(11)).join(" ")}`];
  for (const path of PATHS) lines.push(`${path.padEnd(width)}  ${CALLERS.map((c) => mark(EXPECTED[path]?.[c], results.get(`${path} ${c}`)).padEnd(11)).join(" ")}`);
  return lines.join("\n");
}

afterAll(() => {
  const wrong = [...results.entries()].filter(([key, outcome]) => {
    const [path, caller] = key.split(" ") as [string, CallerKey];
    return outcome.verdict !== EXPECTED[path]?.[caller];
  });
  if (wrong.length > 0) console.log(`authorization matrix (${results.size} cells, ${wrong.length} wrong):\n${matrixText()}`);
});

describe("the authorization matrix", () => {
  it("has a row and a fixture for every procedure of the router, and none for a path it does not have", () => {
    expect(PATHS.length).toBeGreaterThan(40);
    expect(
      PATHS.filter((p) => !EXPECTED[p]),
      "procedures without an expected row (decide who may call them)",
    ).toEqual([]);
    expect(
      PATHS.filter((p) => !FIXTURES[p]),
      "procedures without a fixture input",
    ).toEqual([]);
    expect(
      Object.keys(EXPECTED).filter((p) => !PROCEDURES[p]),
      "rows for paths the router does not have",
    ).toEqual([]);
    expect(
      Object.keys(FIXTURES).filter((p) => !PROCEDURES[p]),
      "fixtures for paths the router does not have",
    ).toEqual([]);
  });

  it.each(PATHS)("%s", async (path) => {
    const observed: Record<string, string> = {};
    const wanted: Record<string, string> = {};
    for (const caller of CALLERS) {
      const outcome = await cell(path, caller);
      results.set(`${path} ${caller}`, outcome);
      observed[caller] = outcome.verdict === "broken" ? `broken (${outcome.detail})` : outcome.verdict;
      wanted[caller] = EXPECTED[path]?.[caller] ?? "no row";
    }
    expect(observed).toEqual(wanted);
  });

  it("found 0 unauthorized successes and 0 wrong refusals over every cell", () => {
    let unauthorized = 0;
    let wronglyRefused = 0;
    let broken = 0;
    for (const path of PATHS) {
      for (const caller of CALLERS) {
        const outcome = results.get(`${path} ${caller}`);
        const expected = EXPECTED[path]?.[caller];
        if (!outcome || outcome.verdict === "broken") broken++;
        else if (outcome.verdict === "allow" && expected !== "allow") unauthorized++;
        else if (outcome.verdict === "refuse" && expected !== "refuse") wronglyRefused++;
      }
    }
    const cells = PATHS.length * CALLERS.length;
    console.log(
      `authorization matrix: ${PATHS.length} procedures × ${CALLERS.length} callers = ${cells} cells; ${unauthorized} unauthorized successes, ${wronglyRefused} wrong refusals, ${broken} broken`,
    );
    expect({ cells: results.size, unauthorized, wronglyRefused, broken }, matrixText()).toEqual({ cells, unauthorized: 0, wronglyRefused: 0, broken: 0 });
  });
});

describe("a procedure without a rule", () => {
  const foreign = initTRPC.create();

  it("is refused by router(), which names its path", () => {
    expect(() => router({ ok: authorized(RULES.read).query(() => 1), sneaky: foreign.procedure.query(() => 2) } as never)).toThrow(/tRPC procedure sneaky declares no rule/);
  });

  it("is refused inside a nested router too", () => {
    expect(() => router({ outer: foreign.router({ inner: foreign.procedure.mutation(() => 3) }) } as never)).toThrow(/tRPC procedure outer\.inner declares no rule/);
  });

  it("leaves a router of ruled procedures alone", () => {
    const built = router({ fine: authorized(RULES.anyone).query(() => "yes") });
    expect(Object.keys(built._def.procedures)).toEqual(["fine"]);
  });
});

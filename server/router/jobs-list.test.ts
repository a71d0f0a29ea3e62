/**
 * The job table's procedures through createCaller against a real migrated SQLite: the new
 * filters (priority and submitted-date ranges) and sorts reach the query, bad bounds are
 * rejected as input errors, and `jobs.submitters` lists who submitted.
 */
import { describe, expect, it } from "vitest";
import { testFarm } from "../services/farm-test-support";
import { appRouter } from "./index";
import { createCallerFactory } from "./trpc";
import { contextAs } from "../auth/test-principals";

const JOB =
  "specificationVersion: jobtemplate-2023-09\nname: '{{Param.Name}}'\nparameterDefinitions:\n- {name: Name, type: STRING, default: shot}\nsteps:\n- name: S\n  script:\n    actions:\n      onRun: {command: echo, args: [hi]}\n";

describe("jobs.list and jobs.submitters", () => {
  it("filters by priority and submission time, sorts by submitter", async () => {
    const t = await testFarm();
    const api = createCallerFactory(appRouter)(await contextAs(t.farm, "admin"));
    const submitted: Array<{ name: string; at: number }> = [];
    for (const [name, submitter, priority] of [
      ["a", "zoe", 10],
      ["b", "al", 60],
      ["c", "mo", 90],
    ] as const) {
      t.clock.now += 60_000;
      const asSubmitter = createCallerFactory(appRouter)(await contextAs(t.farm, "wrangler", submitter));
      const result = await asSubmitter.jobs.submit({ template: { text: JOB, format: "yaml" }, parameterValues: { Name: name }, settings: { priority } });
      expect(result.ok).toBe(true);
      submitted.push({ name, at: t.clock.now });
    }
    const names = async (input: Parameters<typeof api.jobs.list>[0]) => (await api.jobs.list(input)).jobs.map((j) => j.name);
    expect(await names({ minPriority: 50 })).toEqual(["c", "b"]);
    expect(await names({ maxPriority: 60, sort: "priority", direction: "asc" })).toEqual(["a", "b"]);
    expect(await names({ submittedFrom: submitted[1]!.at, submittedTo: submitted[2]!.at })).toEqual(["b"]);
    expect(await names({ sort: "submitter", direction: "asc" })).toEqual(["b", "c", "a"]);
    expect(await api.jobs.submitters()).toEqual(["al", "mo", "zoe"]);
    await expect(api.jobs.list({ minPriority: 101 })).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });
});

import { describe, expect, it } from "vitest";
import { emptyCounts } from "@/lib/farm/statuses";
import type { JobSummary } from "@/server/queries/jobs";
import { DEFAULT_VIEW, type JobView } from "./job-view";
import { applyJobChanges, isFixedView, matchesView } from "./live-jobs";

function job(id: string, patch: Partial<JobSummary> = {}): JobSummary {
  return {
    id,
    name: `render ${id}`,
    submitter: "ana",
    ownerId: "usr-ana",
    priority: 50,
    status: "RUNNING",
    suspended: false,
    canceled: false,
    counts: { ...emptyCounts(), RUNNING: 2, READY: 8 },
    taskCount: 10,
    submittedAt: Date.UTC(2026, 10, 15, 12),
    startedAt: null,
    endedAt: null,
    ...patch,
  };
}

const view = (patch: Partial<JobView> = {}): JobView => ({ ...DEFAULT_VIEW, ...patch });
const page = { total: 3, jobs: [job("a"), job("b"), job("c")] };

describe("matchesView", () => {
  it.each<[string, Partial<JobSummary>, Partial<JobView>, boolean]>([
    ["default view matches anything", {}, {}, true],
    ["status in the filter", { status: "FAILED" }, { statuses: ["FAILED", "CANCELED"] }, true],
    ["status not in the filter", { status: "RUNNING" }, { statuses: ["FAILED"] }, false],
    ["other submitter", {}, { submitter: "bo" }, false],
    ["priority below the range", { priority: 9 }, { minPriority: 10 }, false],
    ["priority at the bounds", { priority: 10 }, { minPriority: 10, maxPriority: 10 }, true],
    ["priority above the range", { priority: 91 }, { maxPriority: 90 }, false],
    ["submitted on the last day of the range", {}, { from: "2026-11-15", to: "2026-11-15" }, true],
    ["submitted the day after the range", {}, { to: "2026-11-14" }, false],
    ["submitted before the range", {}, { from: "2026-11-16" }, false],
    ["search is case-insensitive on the name", { name: "Shot_010" }, { search: "shot_0" }, true],
    ["search matches an exact id", {}, { search: "a" }, true],
    ["search misses", { name: "comp" }, { search: "shot" }, false],
  ])("%s", (_name, patch, viewPatch, expected) => {
    expect(matchesView(job("a", patch), view(viewPatch))).toBe(expected);
  });
});

describe("applyJobChanges", () => {
  it("patches a row in place when its place in the sort cannot change", () => {
    const b = job("b", { counts: { ...emptyCounts(), RUNNING: 1, SUCCEEDED: 9 } });
    const result = applyJobChanges(page, [b], view());
    expect(result.refetch).toBe(false);
    expect(result.page.jobs.map((j) => j.id)).toEqual(["a", "b", "c"]);
    expect(result.page.jobs[1]).toBe(b);
  });

  it("refetches when the sort column of a row changed", () => {
    expect(applyJobChanges(page, [job("b", { priority: 90 })], view({ sort: "priority" })).refetch).toBe(true);
    expect(applyJobChanges(page, [job("b", { priority: 90 })], view({ sort: "name" })).refetch).toBe(false);
    const done = job("b", { counts: { ...emptyCounts(), SUCCEEDED: 1, RUNNING: 1, READY: 8 } });
    expect(applyJobChanges(page, [done], view({ sort: "progress" })).refetch).toBe(true);
  });

  it("refetches when a row leaves the filter", () => {
    const result = applyJobChanges(page, [job("c", { status: "SUCCEEDED" })], view({ statuses: ["RUNNING"] }));
    expect(result.refetch).toBe(true);
  });

  it("refetches for a matching job that is not on the page (new or moved in), ignores others", () => {
    expect(applyJobChanges(page, [job("new")], view()).refetch).toBe(true);
    expect(applyJobChanges(page, [job("new", { submitter: "bo" })], view({ submitter: "ana" })).refetch).toBe(false);
  });

  it("takes the latest of several changes to the same job", () => {
    const result = applyJobChanges(page, [job("a", { status: "READY" }), job("a", { status: "SUCCEEDED" })], view());
    expect(result.page.jobs[0]?.status).toBe("SUCCEEDED");
  });

  it("in a fixed view, a known job changing off the page costs nothing; an unknown one refetches once seen", () => {
    const running = job("elsewhere", { counts: { ...emptyCounts(), RUNNING: 5, SUCCEEDED: 5 } });
    expect(applyJobChanges(page, [running], view(), new Set(["elsewhere"])).refetch).toBe(false);
    expect(applyJobChanges(page, [running], view(), new Set()).refetch).toBe(true);
    expect(applyJobChanges(page, [running], view({ search: "render" }), new Set(["elsewhere"])).refetch).toBe(false);
  });

  it("in a view filtered or sorted by what changes, a known job off the page can still move in", () => {
    const known = new Set(["elsewhere"]);
    expect(applyJobChanges(page, [job("elsewhere", { status: "FAILED" })], view({ statuses: ["FAILED"] }), known).refetch).toBe(true);
    expect(applyJobChanges(page, [job("elsewhere", { priority: 99 })], view({ sort: "priority" }), known).refetch).toBe(true);
  });
});

describe("isFixedView", () => {
  it.each<[Partial<JobView>, boolean]>([
    [{}, true],
    [{ sort: "name", search: "x", submitter: "ana", from: "2026-01-01" }, true],
    [{ sort: "status" }, false],
    [{ sort: "progress" }, false],
    [{ sort: "endedAt" }, false],
    [{ statuses: ["RUNNING"] }, false],
    [{ minPriority: 1 }, false],
  ])("%j → %s", (patch, fixed) => {
    expect(isFixedView(view(patch))).toBe(fixed);
  });
});

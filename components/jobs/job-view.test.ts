import { describe, expect, it } from "vitest";
import { DEFAULT_VIEW, jobViewInput, jobViewSearch, pageCount, parseJobView, toggleSort, withFilters, type JobView } from "./job-view";

const view = (patch: Partial<JobView>): JobView => ({ ...DEFAULT_VIEW, ...patch });

describe("parseJobView", () => {
  it.each<[string, Record<string, string | string[]>, Partial<JobView>]>([
    ["empty query is the default view", {}, {}],
    ["statuses, deduplicated, unknown ones dropped", { status: "FAILED,RUNNING,FAILED,BOGUS" }, { statuses: ["FAILED", "RUNNING"] }],
    ["search and submitter", { q: "shot 10", submitter: "ana" }, { search: "shot 10", submitter: "ana" }],
    ["priority bounds", { pmin: "10", pmax: "90" }, { minPriority: 10, maxPriority: 90 }],
    ["out-of-range or non-numeric priorities are ignored", { pmin: "-1", pmax: "101" }, {}],
    ["fractional priority ignored", { pmin: "1.5" }, {}],
    ["dates", { from: "2026-11-01", to: "2026-11-30" }, { from: "2026-11-01", to: "2026-11-30" }],
    ["malformed dates ignored", { from: "yesterday", to: "2026-13-45" }, {}],
    ["sort with direction", { sort: "name", dir: "desc" }, { sort: "name", direction: "desc" }],
    ["sort without direction takes the column's natural one", { sort: "name" }, { sort: "name", direction: "asc" }],
    ["unknown sort falls back", { sort: "DROP TABLE", dir: "asc" }, { direction: "asc" }],
    ["page and size", { page: "3", size: "100" }, { page: 3, pageSize: 100 }],
    ["page 0 and odd sizes fall back", { page: "0", size: "37" }, {}],
    ["repeated keys: the first wins", { q: ["a", "b"] }, { search: "a" }],
  ])("%s", (_name, query, patch) => {
    expect(parseJobView(query)).toEqual(view(patch));
    expect(parseJobView(new URLSearchParams(Object.entries(query).map(([k, v]) => [k, Array.isArray(v) ? v[0]! : v])))).toEqual(view(patch));
  });
});

describe("jobViewSearch", () => {
  it.each<[Partial<JobView>, string]>([
    [{}, ""],
    [{ statuses: ["RUNNING", "FAILED"] }, "?status=RUNNING%2CFAILED"],
    [{ sort: "priority", direction: "desc" }, "?sort=priority&dir=desc"],
    [{ direction: "asc" }, "?sort=submittedAt&dir=asc"],
    [{ page: 2, pageSize: 25 }, "?page=2&size=25"],
    [{ search: "a&b=c" }, "?q=a%26b%3Dc"],
  ])("%j → %s", (patch, search) => {
    expect(jobViewSearch(view(patch))).toBe(search);
  });

  it("round-trips every field through the URL", () => {
    const full = view({
      statuses: ["SUSPENDED"],
      search: "comp_ 100%",
      submitter: "dee",
      minPriority: 0,
      maxPriority: 100,
      from: "2026-01-01",
      to: "2026-01-31",
      sort: "progress",
      direction: "asc",
      page: 7,
      pageSize: 200,
    });
    expect(parseJobView(new URLSearchParams(jobViewSearch(full)))).toEqual(full);
  });
});

describe("jobViewInput", () => {
  it("pages by offset and leaves out empty filters", () => {
    expect(jobViewInput(view({ page: 3, pageSize: 25 }))).toEqual({ sort: "submittedAt", direction: "desc", offset: 50, limit: 25 });
  });

  it("turns whole UTC days into [from, next day) in epoch ms", () => {
    const input = jobViewInput(view({ from: "2026-11-01", to: "2026-11-01" }));
    expect(input.submittedFrom).toBe(Date.UTC(2026, 10, 1));
    expect(input.submittedTo).toBe(Date.UTC(2026, 10, 2));
  });

  it("trims the search and drops a blank one", () => {
    expect(jobViewInput(view({ search: "  shot " })).search).toBe("shot");
    expect(jobViewInput(view({ search: "   " })).search).toBeUndefined();
  });
});

describe("view changes", () => {
  it("a filter change goes back to page 1", () => {
    expect(withFilters(view({ page: 4 }), { submitter: "bo" })).toEqual(view({ submitter: "bo" }));
  });

  it.each<[Partial<JobView>, JobView["sort"], Pick<JobView, "sort" | "direction">]>([
    [{}, "submittedAt", { sort: "submittedAt", direction: "asc" }],
    [{ sort: "name", direction: "asc" }, "name", { sort: "name", direction: "desc" }],
    [{ sort: "name", direction: "asc" }, "priority", { sort: "priority", direction: "desc" }],
    [{}, "submitter", { sort: "submitter", direction: "asc" }],
  ])("toggleSort from %j on %s", (from, key, want) => {
    expect(toggleSort(view({ ...from, page: 5 }), key)).toEqual(view({ ...want, page: 1 }));
  });

  it.each([
    [0, 50, 1],
    [50, 50, 1],
    [51, 50, 2],
    [10_000, 25, 400],
  ])("pageCount(%i, %i) = %i", (total, size, pages) => {
    expect(pageCount(total, size)).toBe(pages);
  });
});

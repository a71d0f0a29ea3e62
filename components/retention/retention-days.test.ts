import { describe, expect, it } from "vitest";
import { purgeText, readDays, sizeText } from "./retention-days";

describe("readDays", () => {
  it.each<[string, number | null, boolean]>([
    ["30", 30, false],
    [" 0 ", 0, false],
    ["36500", 36_500, false],
    ["", null, false],
    ["36501", null, true],
    ["-1", null, true],
    ["2.5", null, true],
    ["ten", null, true],
  ])("%j", (text, days, problem) => {
    const read = readDays(text);
    expect(read.days).toBe(days);
    expect(read.problem !== null).toBe(problem);
  });
});

describe("sizeText", () => {
  it("counts with units, singular and plural", () => {
    expect(sizeText({ jobs: 1, tasks: 1, logLines: 0 })).toBe("1 job, 1 task, 0 log lines");
    expect(sizeText({ jobs: 3, tasks: 1200, logLines: 5_000_000 })).toBe("3 jobs, 1,200 tasks, 5,000,000 log lines");
  });
});

describe("purgeText", () => {
  it.each<[string, Parameters<typeof purgeText>[0], string]>([
    ["nothing", { mode: "delete", jobs: 0, tasks: 0, logLines: 0, files: [] }, "Nothing to remove: no finished job is that old."],
    ["deleted", { mode: "delete", jobs: 2, tasks: 10, logLines: 40, files: [] }, "Deleted 2 jobs, 10 tasks, 40 log lines."],
    [
      "archived",
      { mode: "archive", jobs: 2, tasks: 10, logLines: 40, files: ["archive/2026-01/job-a.jsonl.gz", "archive/2026-01/job-b.jsonl.gz"] },
      "Archived and removed 2 jobs, 10 tasks, 40 log lines. The archives are in the data folder, under archive/2026-01/.",
    ],
    [
      "archived across months",
      { mode: "archive", jobs: 2, tasks: 2, logLines: 0, files: ["archive/2026-01/a", "archive/2026-02/b"] },
      "Archived and removed 2 jobs, 2 tasks, 0 log lines. The archives are in the data folder, under archive/.",
    ],
  ])("%s", (_case, result, text) => {
    expect(purgeText(result)).toBe(text);
  });
});

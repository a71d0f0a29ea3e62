import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, readSettings, type SettingsText } from "./job-settings";

describe("readSettings", () => {
  it.each<[string, Partial<SettingsText>, object, object]>([
    ["defaults", {}, { priority: 50, initialState: "READY", maxRetriesPerTask: 2, maxFailedTasks: 100 }, {}],
    ["held, named", { initialState: "SUSPENDED", submitter: "  ana " }, { initialState: "SUSPENDED", submitter: "ana" }, {}],
    ["blank submitter is left to the farm", { submitter: "  " }, { priority: 50 }, {}],
    ["priority above 100", { priority: "101" }, {}, { priority: "Priority must be a whole number from 0 to 100" }],
    ["priority not whole", { priority: "5.5" }, {}, { priority: expect.stringMatching(/whole number/) }],
    ["negative retries", { maxRetriesPerTask: "-1" }, {}, { maxRetriesPerTask: expect.stringMatching(/0 to 1000/) }],
    ["failed tasks empty", { maxFailedTasks: "" }, {}, { maxFailedTasks: expect.stringMatching(/whole number/) }],
    ["submitter with a newline", { submitter: "a\nb" }, {}, { submitter: expect.stringMatching(/control/) }],
    ["submitter too long", { submitter: "x".repeat(129) }, {}, { submitter: expect.stringMatching(/128/) }],
    // As the farm counts it (UTF-16 units): 65 emoji are 130, refused here as the server would.
    ["submitter too long in UTF-16 units", { submitter: "\u{1F600}".repeat(65) }, {}, { submitter: expect.stringMatching(/128/) }],
  ])("%s", (_case, changes, settings, errors) => {
    const read = readSettings({ ...DEFAULT_SETTINGS, ...changes });
    expect(read.settings).toMatchObject(settings);
    expect(read.errors).toEqual(errors);
  });

  it("sends no submitter key when blank, and no number that failed", () => {
    const read = readSettings({ ...DEFAULT_SETTINGS, priority: "x" });
    expect(read.settings).not.toHaveProperty("submitter");
    expect(read.settings).not.toHaveProperty("priority");
  });
});

import { describe, expect, it } from "vitest";
import { ARTIST_PRIORITY_CAP } from "@/lib/farm/access";
import { DEFAULT_SETTINGS, readSettings, type SettingsText } from "./job-settings";

describe("readSettings", () => {
  it.each<[string, Partial<SettingsText>, object, object]>([
    ["defaults", {}, { priority: 50, initialState: "READY", maxRetriesPerTask: 2, maxFailedTasks: 100, retryDelaySeconds: 5, maxWorkerFailures: 3 }, {}],
    ["retry delay over an hour", { retryDelaySeconds: "3601" }, {}, { retryDelaySeconds: expect.stringMatching(/Retry delay must be a whole number from 0 to 3600/) }],
    ["worker rule off", { maxWorkerFailures: "0" }, { maxWorkerFailures: 0 }, {}],
    ["held", { initialState: "SUSPENDED" }, { initialState: "SUSPENDED" }, {}],
    ["priority above 100", { priority: "101" }, {}, { priority: "Priority must be a whole number from 0 to 100" }],
    ["priority not whole", { priority: "5.5" }, {}, { priority: expect.stringMatching(/whole number/) }],
    ["negative retries", { maxRetriesPerTask: "-1" }, {}, { maxRetriesPerTask: expect.stringMatching(/0 to 1000/) }],
    ["failed tasks empty", { maxFailedTasks: "" }, {}, { maxFailedTasks: expect.stringMatching(/whole number/) }],
  ])("%s", (_case, changes, settings, errors) => {
    const read = readSettings({ ...DEFAULT_SETTINGS, ...changes });
    expect(read.settings).toMatchObject(settings);
    expect(read.errors).toEqual(errors);
  });

  it("never sends a submitter: the farm takes the signed-in user's name", () => {
    expect(readSettings(DEFAULT_SETTINGS).settings).not.toHaveProperty("submitter");
  });

  it("sends no number that failed", () => {
    expect(readSettings({ ...DEFAULT_SETTINGS, priority: "x" }).settings).not.toHaveProperty("priority");
  });

  it.each<[string, number, string, object]>([
    ["an artist at the cap", ARTIST_PRIORITY_CAP, String(ARTIST_PRIORITY_CAP), {}],
    [
      "an artist above the cap",
      ARTIST_PRIORITY_CAP,
      String(ARTIST_PRIORITY_CAP + 1),
      { priority: `Priority must be a whole number from 0 to ${ARTIST_PRIORITY_CAP} (a wrangler can give a job a higher one)` },
    ],
    ["a wrangler at 100", 100, "100", {}],
    ["a cap above the farm's maximum is the farm's maximum", 500, "101", { priority: "Priority must be a whole number from 0 to 100" }],
  ])("caps the priority for %s", (_case, cap, priority, errors) => {
    expect(readSettings({ ...DEFAULT_SETTINGS, priority }, cap).errors).toEqual(errors);
  });
});

import { describe, expect, it } from "vitest";
import { emptyCounts, type TaskStatus } from "@/lib/farm/statuses";
import { allowedActions, WRANGLER_ACTIONS } from "./actions";

const counts = (patch: Partial<Record<TaskStatus, number>>) => ({ ...emptyCounts(), ...patch });

describe("allowedActions", () => {
  it.each<[string, Partial<Record<TaskStatus, number>>, string[]]>([
    ["running work can be canceled, suspended or requeued", { RUNNING: 2 }, ["cancel", "suspend", "requeue"]],
    ["only failed tasks: requeue or retry", { FAILED: 3 }, ["requeue", "retryFailed"]],
    ["a suspended job resumes or is canceled", { SUSPENDED: 4 }, ["cancel", "resume"]],
    ["a finished job can only be requeued", { SUCCEEDED: 10 }, ["requeue"]],
    ["pending tasks are not requeued (they have not run)", { PENDING: 1 }, ["cancel", "suspend"]],
    ["nothing at all", {}, []],
  ])("%s", (_name, patch, expected) => {
    expect([...allowedActions(counts(patch))].sort()).toEqual([...expected].sort());
  });

  it("offers everything when the counts are unknown", () => {
    expect([...allowedActions(undefined)]).toEqual([...WRANGLER_ACTIONS]);
  });
});

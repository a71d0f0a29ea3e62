import { describe, expect, it } from "vitest";
import { drainState } from "./drain-state";

const running = { status: "RUNNING" as const, sessionId: "s1" };
const idle = { status: "IDLE" as const, sessionId: null };

describe("drainState", () => {
  it.each([
    { name: "not drained", worker: { ...running, drain: null, disabled: false }, label: "Accepting work", tone: null },
    { name: "after task, still running it", worker: { ...running, drain: "AFTER_TASK" as const, disabled: false }, label: "Draining: finishing its task", tone: "paused" },
    {
      name: "after task, exiting its environments",
      worker: { status: "STOPPING" as const, sessionId: "s1", drain: "AFTER_TASK" as const, disabled: false },
      label: "Draining: finishing its task",
      tone: "paused",
    },
    { name: "after task, done", worker: { ...idle, drain: "AFTER_TASK" as const, disabled: false }, label: "Drained after task", tone: "off" },
    { name: "now, task being canceled", worker: { ...running, drain: "NOW" as const, disabled: false }, label: "Drained now: canceling its task", tone: "paused" },
    { name: "now, done", worker: { ...idle, drain: "NOW" as const, disabled: false }, label: "Drained now", tone: "off" },
    { name: "disabled while running", worker: { ...running, drain: null, disabled: true }, label: "Disabled: canceling its task", tone: "paused" },
    { name: "disabled and drained, idle", worker: { ...idle, drain: "AFTER_TASK" as const, disabled: true }, label: "Disabled", tone: "off" },
    { name: "drained, then lost", worker: { status: "NOT_RESPONDING" as const, sessionId: null, drain: "AFTER_TASK" as const, disabled: false }, label: "Drained after task", tone: "off" },
  ])("$name", ({ worker, label, tone }) => {
    expect(drainState(worker)).toEqual({ label, tone });
  });
});

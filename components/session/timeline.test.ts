import { describe, expect, it } from "vitest";
import { actionLabel, axisTicks, barOf, MIN_BAR_PERCENT, taskAttempts, timelineAxis } from "./timeline";

const act = (id: string, startedAt: number | null, endedAt: number | null) => ({ id, startedAt, endedAt });

describe("timelineAxis", () => {
  it.each([
    ["ended actions", 0, [act("a", 0, 10), act("b", 10, 40)], 99, { from: 0, to: 40 }],
    ["a running action reaches now", 0, [act("a", 0, 10), act("b", 10, null)], 70, { from: 0, to: 70 }],
    ["an action before the Session's recorded start", 100, [act("a", 90, 120)], 999, { from: 90, to: 120 }],
    ["nothing started yet", 50, [act("a", null, null)], 999, { from: 50, to: 51 }],
  ] as const)("%s", (_name, start, actions, now, expected) => {
    expect(timelineAxis(start, actions, now)).toEqual(expected);
  });
});

describe("barOf", () => {
  const axis = { from: 0, to: 100 };
  it.each([
    ["first quarter", act("a", 0, 25), 100, { left: 0, width: 25, running: false }],
    ["middle", act("a", 50, 75), 100, { left: 50, width: 25, running: false }],
    ["running grows to now", act("a", 50, null), 80, { left: 50, width: 30, running: true }],
    ["an instant gets the minimum width", act("a", 40, 40), 100, { left: 40, width: MIN_BAR_PERCENT, running: false }],
    ["an instant at the very end stays on the axis", act("a", 100, 100), 100, { left: 100 - MIN_BAR_PERCENT, width: MIN_BAR_PERCENT, running: false }],
  ] as const)("%s", (_name, action, now, expected) => {
    const bar = barOf(action, axis, now)!;
    expect({ ...bar, left: Number(bar.left.toFixed(6)), width: Number(bar.width.toFixed(6)) }).toEqual(expected);
  });

  it("has no bar before the action starts", () => {
    expect(barOf(act("a", null, null), axis, 50)).toBeNull();
  });

  it("grows a running bar as the clock moves", () => {
    const action = act("a", 0, null);
    const widths = [20, 40, 80].map((now) => barOf(action, timelineAxis(0, [act("b", 0, 100), action], now), now)!.width);
    expect(widths).toEqual([20, 40, 80]);
  });
});

describe("axisTicks", () => {
  it.each([
    [{ from: 0, to: 3000 }, [0, 1000, 2000, 3000]],
    [{ from: 0, to: 45_000 }, [0, 10_000, 20_000, 30_000, 40_000]],
    [{ from: 5, to: 5 + 7 * 60_000 }, [0, 120_000, 240_000, 360_000]],
  ] as const)("%j → %j", (axis, ticks) => {
    expect(axisTicks(axis)).toEqual(ticks);
  });
});

describe("actionLabel", () => {
  it.each([
    [{ kind: "ENV_ENTER", environmentId: "job:Tools", stepName: "Render", taskParameters: null }, "Enter Tools"],
    [{ kind: "ENV_EXIT", environmentId: "step:Render:Scene", stepName: "Render", taskParameters: null }, "Exit Scene"],
    [{ kind: "TASK_RUN", environmentId: null, stepName: "Render", taskParameters: { Frame: { value: "3" }, Tile: { value: "2" } } }, "Render · Frame=3 Tile=2"],
    [{ kind: "TASK_RUN", environmentId: null, stepName: "Once", taskParameters: {} }, "Once"],
  ] as const)("%j → %s", (action, label) => {
    expect(actionLabel(action)).toBe(label);
  });
});

describe("taskAttempts", () => {
  it("numbers a task's runs across Sessions in order, skipping other tasks and environments", () => {
    const sessions = [
      {
        id: "s1",
        workerId: "w1",
        actions: [
          { id: "e1", kind: "ENV_ENTER", taskId: null, status: "SUCCEEDED", startedAt: 1 },
          { id: "t1", kind: "TASK_RUN", taskId: 7, status: "FAILED", startedAt: 2 },
          { id: "t2", kind: "TASK_RUN", taskId: 8, status: "SUCCEEDED", startedAt: 3 },
        ],
      },
      { id: "s2", workerId: "w2", actions: [{ id: "t3", kind: "TASK_RUN", taskId: 7, status: "RUNNING", startedAt: 9 }] },
    ];
    expect(taskAttempts(sessions, 7).map((a) => [a.number, a.sessionId, a.actionId, a.workerId, a.status])).toEqual([
      [1, "s1", "t1", "w1", "FAILED"],
      [2, "s2", "t3", "w2", "RUNNING"],
    ]);
    expect(taskAttempts(sessions, 99)).toEqual([]);
  });
});

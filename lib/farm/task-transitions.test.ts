/**
 * The task state machine's table: the moves the farm makes are allowed, others are refused with
 * TransitionRefused, every status is reachable from the statuses tasks are created in, and a task
 * that ended leaves its ending only by a wrangler's (or the compatibility refresh's) action.
 */
import { describe, expect, it } from "vitest";
import { rollUpStatus, emptyCounts, TASK_STATUSES, TERMINAL_TASK_STATUSES, type TaskStatus } from "./statuses";
import { ALLOWED_MOVES, assertMove, assertMoves, canMove, eventsOf, INITIAL_TASK_STATUSES, movableTo, TASK_TRANSITIONS, TransitionRefused } from "./task-transitions";

/** The statuses the table's moves lead to from `start` (itself included). */
function reachableFrom(start: readonly TaskStatus[]): Set<TaskStatus> {
  const reached = new Set<TaskStatus>(start);
  for (let grew = true; grew;) {
    grew = false;
    for (const { from, to } of TASK_TRANSITIONS) {
      if (reached.has(from) && !reached.has(to)) {
        reached.add(to);
        grew = true;
      }
    }
  }
  return reached;
}

describe("task transitions", () => {
  it.each([
    ["PENDING", "READY", ["release"]],
    ["READY", "ASSIGNED", ["claim"]],
    ["ASSIGNED", "RUNNING", ["start"]],
    ["RUNNING", "SUCCEEDED", ["succeed"]],
    ["ASSIGNED", "SUCCEEDED", ["succeed"]],
    ["RUNNING", "READY", ["fail", "not-attempted", "worker-lost", "drain"]],
    ["ASSIGNED", "READY", ["fail", "not-attempted", "worker-lost", "assigned-timeout", "drain"]],
    ["RUNNING", "FAILED", ["fail", "worker-lost", "drain"]],
    ["RUNNING", "CANCELED", ["cancel"]],
    ["SUSPENDED", "CANCELED", ["cancel", "job-failed"]],
    ["RUNNING", "SUSPENDED", ["suspend"]],
    ["SUSPENDED", "PENDING", ["resume"]],
    ["FAILED", "PENDING", ["requeue", "retry"]],
    ["SUCCEEDED", "PENDING", ["requeue"]],
    ["READY", "NOT_COMPATIBLE", ["not-compatible"]],
    ["NOT_COMPATIBLE", "PENDING", ["requeue", "compatible-again"]],
  ] as Array<[TaskStatus, TaskStatus, string[]]>)("allows %s → %s (%s)", (from, to, why) => {
    expect(canMove(from, to)).toBe(true);
    expect(() => assertMove(from, to)).not.toThrow();
    expect(eventsOf(from, to).sort()).toEqual([...why].sort());
  });

  it.each([
    ["READY", "RUNNING"],
    ["PENDING", "ASSIGNED"],
    ["RUNNING", "ASSIGNED"],
    ["SUCCEEDED", "READY"],
    ["SUCCEEDED", "FAILED"],
    ["FAILED", "READY"],
    ["CANCELED", "READY"],
    ["SUSPENDED", "READY"],
    ["SUSPENDED", "RUNNING"],
    ["NOT_COMPATIBLE", "READY"],
    ["ASSIGNED", "NOT_COMPATIBLE"],
    ["PENDING", "SUCCEEDED"],
  ] as Array<[TaskStatus, TaskStatus]>)("refuses %s → %s with TransitionRefused naming both", (from, to) => {
    expect(canMove(from, to)).toBe(false);
    expect(() => assertMove(from, to, "task 7")).toThrow(TransitionRefused);
    expect(() => assertMove(from, to, "task 7")).toThrow(`${from} → ${to}`);
    expect(() => assertMove(from, to, "task 7")).toThrow("task 7");
    try {
      assertMove(from, to);
    } catch (error) {
      expect(error).toMatchObject({ from, to, name: "TransitionRefused" });
    }
  });

  it("allows a same-status patch for every status, and nothing for a status not in the vocabulary", () => {
    for (const status of TASK_STATUSES) expect(canMove(status, status)).toBe(true);
    expect(canMove("BOGUS" as TaskStatus, "READY")).toBe(false);
  });

  it("checks a bulk move's whole from-list", () => {
    expect(() => assertMoves(["PENDING", "READY", "RUNNING"], "CANCELED")).not.toThrow();
    expect(() => assertMoves(["PENDING", "CANCELED", "SUCCEEDED"], "CANCELED")).toThrow("SUCCEEDED → CANCELED");
  });

  it("derives the services' from-lists from the table", () => {
    expect(movableTo("CANCELED", "cancel")).toEqual(["PENDING", "READY", "ASSIGNED", "RUNNING", "SUSPENDED", "NOT_COMPATIBLE"]);
    expect(movableTo("CANCELED", "job-failed")).toEqual(["PENDING", "READY", "SUSPENDED", "NOT_COMPATIBLE"]);
    expect(movableTo("PENDING", "requeue")).toEqual(["READY", "ASSIGNED", "RUNNING", "CANCELED", "FAILED", "SUCCEEDED", "NOT_COMPATIBLE"]);
    expect(movableTo("PENDING", "retry")).toEqual(["FAILED"]);
    expect(movableTo("SUSPENDED", "suspend")).toEqual(["PENDING", "READY", "ASSIGNED", "RUNNING"]);
    expect(movableTo("PENDING", "resume")).toEqual(["SUSPENDED"]);
    expect(movableTo("NOT_COMPATIBLE", "not-compatible")).toEqual(["PENDING", "READY"]);
    expect(movableTo("PENDING", "compatible-again")).toEqual(["NOT_COMPATIBLE"]);
    // Without an event: every status that may move there.
    expect(movableTo("ASSIGNED")).toEqual(["READY"]);
  });

  it("ALLOWED_MOVES is the table, without same-status entries or duplicates", () => {
    for (const from of TASK_STATUSES) {
      const expected = new Set(TASK_TRANSITIONS.filter((t) => t.from === from).map((t) => t.to));
      expect([...ALLOWED_MOVES[from]].sort()).toEqual([...expected].sort());
      expect(ALLOWED_MOVES[from].has(from)).toBe(false);
    }
    const keys = TASK_TRANSITIONS.map((t) => `${t.from}>${t.to}>${t.why}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it("reaches every status from the statuses tasks are created in", () => {
    expect([...reachableFrom(INITIAL_TASK_STATUSES)].sort()).toEqual([...TASK_STATUSES].sort());
  });

  it("every status can get back to READY (nothing is stuck for good)", () => {
    for (const start of TASK_STATUSES) expect(reachableFrom([start]).has("READY"), start).toBe(true);
  });

  it("a task that ended leaves its ending only by a wrangler's requeue or retry", () => {
    for (const status of ["SUCCEEDED", "FAILED", "CANCELED"] as const) {
      const out = TASK_TRANSITIONS.filter((t) => t.from === status);
      expect(out.length, status).toBeGreaterThan(0);
      for (const t of out) {
        expect(t.to).toBe("PENDING");
        expect(["requeue", "retry"]).toContain(t.why);
      }
    }
  });

  it("NOT_COMPATIBLE leaves only when a matching worker comes, or by a wrangler's (or a failed job's) action", () => {
    expect(TERMINAL_TASK_STATUSES.has("NOT_COMPATIBLE")).toBe(true);
    expect(new Set(TASK_TRANSITIONS.filter((t) => t.from === "NOT_COMPATIBLE").map((t) => t.why))).toEqual(new Set(["compatible-again", "cancel", "job-failed", "requeue"]));
  });

  it("only a worker's Session starts a task, and a task in a Session leaves it only to end, be retried, or be taken away", () => {
    expect(movableTo("RUNNING")).toEqual(["ASSIGNED"]);
    expect([...ALLOWED_MOVES.RUNNING].sort()).toEqual(["CANCELED", "FAILED", "PENDING", "READY", "SUCCEEDED", "SUSPENDED"]);
    expect([...ALLOWED_MOVES.ASSIGNED].sort()).toEqual(["CANCELED", "FAILED", "PENDING", "READY", "RUNNING", "SUCCEEDED", "SUSPENDED"]);
  });
});

describe("rollUpStatus", () => {
  it("is PENDING with no tasks at all, never SUCCEEDED", () => {
    expect(rollUpStatus(emptyCounts())).toBe("PENDING");
  });

  it("is SUCCEEDED only when tasks succeeded and nothing else is left", () => {
    expect(rollUpStatus({ ...emptyCounts(), SUCCEEDED: 3 })).toBe("SUCCEEDED");
    expect(rollUpStatus({ ...emptyCounts(), SUCCEEDED: 3, CANCELED: 1 })).toBe("CANCELED");
    expect(rollUpStatus({ ...emptyCounts(), SUCCEEDED: 3, PENDING: 1 })).toBe("PENDING");
    expect(rollUpStatus({ ...emptyCounts(), SUCCEEDED: 3, RUNNING: 1, FAILED: 1 })).toBe("RUNNING");
  });
});

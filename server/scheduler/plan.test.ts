/** The scheduler's pure decisions, as tables. */
import { describe, expect, it } from "vitest";
import type { WorkerCapabilities } from "../../lib/openjd";
import { afterFailure, afterInterruption, decide, incompatibility, MAX_INTERRUPTIONS, stackPlan, type CandidateStep, type HeldSession } from "./plan";

const LINUX: WorkerCapabilities = { amounts: { "amount.worker.vcpu": 8, "amount.worker.memory": 16384 }, attributes: { "attr.worker.os.family": ["linux"] } };
const WINDOWS_ONLY = { amounts: [], attributes: [{ name: "attr.worker.os.family", anyOf: ["windows"] }] };
const BIG = { amounts: [{ name: "amount.worker.vcpu", min: 64 }], attributes: [] };

function step(id: string, over: Partial<CandidateStep> = {}): CandidateStep {
  return { stepId: id, jobId: id.split(":")[0] as string, priority: 50, jobSeq: 1, stepIndex: 0, hostRequirements: null, stack: [], ...over };
}

function held(over: Partial<HeldSession> = {}): HeldSession {
  return { jobId: "a", priority: 50, jobSeq: 1, stack: ["job:Env"], ending: false, ...over };
}

const worker = (acceptsWork = true) => ({ capabilities: LINUX, acceptsWork });
const summary = (d: ReturnType<typeof decide>) => (d.kind === "continue" ? `continue ${d.step.stepId}` : d.kind === "start" ? `start ${d.step.stepId}${d.probe ? " (probe)" : ""}` : d.kind);

describe("decide", () => {
  it.each<[string, HeldSession | null, CandidateStep[], string, boolean?]>([
    ["nothing to do", null, [], "idle"],
    ["highest priority first", null, [step("a:0", { priority: 10 }), step("b:0", { priority: 90, jobSeq: 2 })], "start b:0"],
    ["same priority: submitted first", null, [step("b:0", { jobSeq: 7 }), step("a:0", { jobSeq: 3 })], "start a:0"],
    ["same job: step order", null, [step("a:1", { stepIndex: 1 }), step("a:0")], "start a:0"],
    ["incompatible steps are skipped", null, [step("a:0", { priority: 90, hostRequirements: WINDOWS_ONLY }), step("b:0", { jobSeq: 2 })], "start b:0"],
    ["amount too small is skipped", null, [step("a:0", { hostRequirements: BIG })], "idle"],
    ["no new Session while not accepting work", null, [step("a:0")], "idle", false],
    ["held Session keeps its job", held(), [step("b:0", { jobSeq: 0 }), step("a:0", { stack: ["job:Env"] })], "continue a:0"],
    ["held Session prefers the step with its stack", held(), [step("a:0", { stack: ["job:Env", "step:A:X"] }), step("a:1", { stepIndex: 1, stack: ["job:Env"] })], "continue a:1"],
    ["held Session moves on to another step of its job", held(), [step("a:1", { stepIndex: 1, stack: ["job:Env", "step:B:Y"] })], "continue a:1"],
    ["held Session ends when its job has nothing ready", held(), [step("b:0")], "end"],
    ["held Session yields to a strictly higher priority", held(), [step("a:0"), step("b:0", { priority: 51 })], "end"],
    ["equal priority does not preempt", held(), [step("a:0"), step("b:0", { jobSeq: 0 })], "continue a:0"],
    ["a higher-priority job this worker cannot run does not preempt", held(), [step("a:0"), step("b:0", { priority: 99, hostRequirements: WINDOWS_ONLY })], "continue a:0"],
    ["an ending Session only ends", held({ ending: true }), [step("a:0")], "end"],
    ["a draining worker ends its Session", held(), [step("a:0")], "end", false],
    ["a step whose first task is out: the next unmeasured step of that priority is probed", null, [step("a:0", { inFlight: 1 }), step("b:0", { jobSeq: 2 })], "start b:0 (probe)"],
    ["probing ahead skips steps already probed", null, [step("a:0", { inFlight: 1 }), step("b:0", { jobSeq: 2, inFlight: 3 }), step("c:0", { jobSeq: 3 })], "start c:0 (probe)"],
    ["probing ahead never takes a measured step", null, [step("a:0", { inFlight: 1 }), step("b:0", { jobSeq: 2, averageRuntimeMs: 5 })], "start a:0"],
    ["probing ahead never takes a lower priority", null, [step("a:0", { priority: 60, inFlight: 1 }), step("b:0")], "start a:0"],
    ["every unmeasured step probed: submission order", null, [step("b:0", { jobSeq: 2, inFlight: 1 }), step("a:0", { inFlight: 1 })], "start a:0"],
    ["a measured step in flight keeps its place", null, [step("a:0", { inFlight: 9, averageRuntimeMs: 5 }), step("b:0", { jobSeq: 2 })], "start a:0"],
    ["a held Session keeps its job while it is probed", held(), [step("a:0", { stack: ["job:Env"], inFlight: 1 }), step("b:0", { jobSeq: 2 })], "continue a:0"],
    [
      "a probe Session yields to an earlier job of its priority with work",
      held({ jobId: "b", jobSeq: 2, probe: true }),
      [step("a:0", { averageRuntimeMs: 5 }), step("b:0", { jobSeq: 2, stack: ["job:Env"], averageRuntimeMs: 5 })],
      "end",
    ],
    [
      "a probe Session keeps its job when no earlier job has work",
      held({ jobId: "b", jobSeq: 2, probe: true }),
      [step("b:0", { jobSeq: 2, stack: ["job:Env"], averageRuntimeMs: 5 }), step("c:0", { jobSeq: 3 })],
      "continue b:0",
    ],
    ["a Session opened in order keeps its job though an earlier job has work again", held({ jobId: "b", jobSeq: 2 }), [step("a:0"), step("b:0", { jobSeq: 2, stack: ["job:Env"] })], "continue b:0"],
  ])("%s", (_name, session, candidates, expected, acceptsWork = true) => {
    expect(summary(decide(worker(acceptsWork), session, candidates))).toBe(expected);
  });
});

describe("stackPlan", () => {
  it.each<[string[], string[], string[], string[]]>([
    [[], ["t", "j"], [], ["t", "j"]],
    [["t", "j"], ["t", "j"], [], []],
    [["t", "j", "s:A"], ["t", "j", "s:B"], ["s:A"], ["s:B"]],
    [["t", "j", "s:A", "s:A2"], ["t", "j"], ["s:A2", "s:A"], []],
    [["t", "j"], [], ["j", "t"], []],
    [["x"], ["y"], ["x"], ["y"]],
  ])("%j → %j: exit %j, enter %j", (current, wanted, exit, enter) => {
    expect(stackPlan(current, wanted)).toEqual({ exit, enter });
  });
});

describe("retry budgets", () => {
  it.each([
    [1, 0, "FAILED"],
    [1, 2, "READY"],
    [2, 2, "READY"],
    [3, 2, "FAILED"],
  ] as const)("failure %d with %d retries → %s", (failures, retries, expected) => {
    expect(afterFailure(failures, retries)).toBe(expected);
  });

  it("interruptions have their own, larger budget", () => {
    expect(afterInterruption(MAX_INTERRUPTIONS)).toBe("READY");
    expect(afterInterruption(MAX_INTERRUPTIONS + 1)).toBe("FAILED");
  });
});

describe("incompatibility", () => {
  it("nothing is decided before any worker is known", () => {
    expect(incompatibility(WINDOWS_ONLY, [])).toBeNull();
  });

  it("one matching worker is enough", () => {
    expect(incompatibility(WINDOWS_ONLY, [LINUX, { amounts: {}, attributes: { "attr.worker.os.family": ["windows"] } }])).toBeNull();
  });

  it("explains why no worker matches", () => {
    expect(incompatibility(BIG, [LINUX, LINUX])).toBe("no worker of an enabled pool matches its host requirements (2 checked): needs amount.worker.vcpu >= 64, worker has 8");
  });
});

/**
 * The WorkerAgent's HTTP behaviour against a tiny in-test farm (fake-farm.ts) with real Session
 * subprocesses: enrollment with the pool's token and the worker's own credential on every later
 * call, sync and log shipping, 409 → register again, 401 → reread the token file and enroll
 * again, retries after 503, lines re-sent until acknowledged, the server's log caps, refusal,
 * drain and stop.
 */
import { afterEach, describe, expect, it } from "vitest";
import { PROTOCOL_PATHS } from "../../lib/farm/protocol";
import { py, sh, TEST_PATH, tempRoot } from "../session/session-test-support";
import { WorkerAgent, type AgentNotice, type WorkerAgentOptions } from "./agent";
import { FakeFarm } from "./fake-farm";
import { assignment, definition, enter, exit, task, waitUntil } from "./worker-test-support";

const JOB = definition(
  "job-1",
  `
  specificationVersion: jobtemplate-2023-09
  name: Agent
  jobEnvironments:
  - name: Farm
    script:
      actions:
        onEnter: ${sh("echo FARM_ENTER")}
        onExit: ${sh("echo FARM_EXIT")}
  steps:
  - name: Work
    parameterSpace:
      taskParameterDefinitions:
      - { name: Seconds, type: FLOAT, range: ["0", "0.5", "30"] }
    script:
      actions:
        onRun: ${py("import sys, time\nfor i in range(5): print('line', i, flush=True)\nprint('openjd_progress: 50', flush=True)\ntime.sleep(float(sys.argv[1]))\nprint('TASK_DONE', flush=True)", {}, "{{Task.Param.Seconds}}")}
  `,
);
const work = (id: string, seconds: string) => task(id, "Work", { Seconds: seconds }, "FLOAT");
const CHATTY = definition(
  "job-2",
  `
  specificationVersion: jobtemplate-2023-09
  name: Chatty
  steps:
  - name: Print
    script:
      actions:
        onRun: ${py("for i in range(300): print(str(i).rjust(99, '.'), flush=(i % 50 == 0))")}
  `,
);
const SESSION = (sessionId: string, seconds = "0") => assignment(sessionId, JOB, [enter("e1", "job:Farm"), work("t1", seconds), exit("x1", "job:Farm")], true);

let farm: FakeFarm;
const agents: WorkerAgent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.stop()));
  await farm?.close();
});

async function startFarm(): Promise<FakeFarm> {
  farm = await new FakeFarm().start();
  return farm;
}

function makeAgent(options: Partial<WorkerAgentOptions> = {}): { agent: WorkerAgent; notices: AgentNotice[]; done: Promise<string> } {
  const notices: AgentNotice[] = [];
  const agent = new WorkerAgent({
    serverUrl: farm.url,
    token: farm.token,
    name: "test-worker",
    capabilities: { amounts: { "amount.worker.vcpu": 2 }, attributes: { "attr.worker.os.family": ["linux"] } },
    rootDirectory: tempRoot(),
    baseEnvironment: { PATH: TEST_PATH },
    retry: { initialMs: 20, maxMs: 100 },
    onNotice: (n) => notices.push(n),
    ...options,
  });
  agents.push(agent);
  return { agent, notices, done: agent.start() };
}

describe("WorkerAgent", () => {
  it("registers with the bearer token, runs what sync assigns, ships its log and drains out", async () => {
    await startFarm();
    farm.assignments = [SESSION("s1")];
    const { agent, notices, done } = makeAgent();
    await waitUntil(() => farm.finalStatus("x1") !== undefined && farm.syncs.at(-1)?.sessions.length === 0, "the Session to be reported ended");
    expect(farm.requests[0]).toMatchObject({ path: PROTOCOL_PATHS.register, authorization: `Bearer ${farm.token}` });
    expect(farm.registrations).toEqual([
      { name: "test-worker", capabilities: { amounts: { "amount.worker.vcpu": 2 }, attributes: { "attr.worker.os.family": ["linux"] } }, instanceId: expect.stringMatching(/^[0-9a-f-]{36}$/) },
    ]);
    // A progress message after a sync took the RUNNING update comes as another RUNNING update.
    const transitions = farm.updates.map((u) => `${u.actionId} ${u.status}`).filter((t, i, all) => t !== all[i - 1]);
    expect(transitions).toEqual(["e1 RUNNING", "e1 SUCCEEDED", "t1 RUNNING", "t1 SUCCEEDED", "x1 RUNNING", "x1 SUCCEEDED"]);
    expect(farm.updates.filter((u) => u.actionId === "t1" && u.status === "RUNNING").at(-1)).toMatchObject({ progress: 50, startedAt: expect.any(Number) });
    expect(farm.syncs.every((s) => s.workerId === "worker-1" && s.leaseEpoch === 1)).toBe(true);
    await waitUntil(() => agent.logs.pending === 0, "every line acknowledged");
    const text = farm.storedText("s1");
    expect(farm.storedSeqs("s1")).toEqual(text.map((_, i) => i));
    expect(text).toEqual(expect.arrayContaining(["FARM_ENTER", "line 4", "TASK_DONE", "FARM_EXIT"]));
    agent.drain();
    expect(await done).toBe("drained");
    expect(farm.syncs.at(-1)).toMatchObject({ draining: true, sessions: [], actions: [] });
    expect(notices.map((n) => n.type)).toEqual(["registered", "session_started", "action_ended", "action_ended", "action_ended", "session_ended", "draining", "stopped"]);
  });

  it("reports a task running within a second of its start when it came in the answer to the last one's end, not at the next interval", async () => {
    await startFarm();
    // An interval far longer than the test: only the start report can bring RUNNING in time.
    farm.syncIntervalSeconds = 60;
    farm.assignments = [assignment("s1", JOB, [enter("e1", "job:Farm"), work("t1", "0")])];
    // Like the farm: the next task comes in the answer to the sync that reports the last one ended.
    let sent = false;
    farm.onSync = (request) => {
      if (sent || !request.updates.some((u) => u.actionId === "t1" && u.status === "SUCCEEDED")) return;
      sent = true;
      farm.assignments = [assignment("s1", JOB, [work("t2", "30")])];
    };
    makeAgent();
    await waitUntil(() => farm.updates.some((u) => u.actionId === "t2" && u.status === "RUNNING"), "t2's RUNNING to arrive", 5_000);
    const index = farm.updates.findIndex((u) => u.actionId === "t2" && u.status === "RUNNING");
    const startedAt = farm.updates[index]?.startedAt ?? Number.NaN;
    expect(farm.updateArrivals[index]! - startedAt).toBeLessThan(1_000);
    // One sync per change worth telling, no more: the first, e1's end, t1's end, t2's start.
    expect(farm.syncs.length).toBeLessThanOrEqual(5);
  });

  it("uploads a running task's new log lines within the log window, without a sync", async () => {
    await startFarm();
    // An interval far longer than the test: only the log-only upload can bring the late line in time.
    farm.syncIntervalSeconds = 60;
    const slow = definition(
      "job-3",
      `
      specificationVersion: jobtemplate-2023-09
      name: Slow
      steps:
      - name: Print
        script:
          actions:
            onRun: ${py("import time\nprint('EARLY', flush=True)\ntime.sleep(2)\nprint('LATE', flush=True)\ntime.sleep(30)")}
      `,
    );
    farm.assignments = [assignment("s1", slow, [task("t1", "Print", {}, "STRING")])];
    makeAgent();
    await waitUntil(() => farm.storedText("s1").includes("EARLY") && farm.updates.some((u) => u.actionId === "t1" && u.status === "RUNNING"), "the start and the first line", 5_000);
    farm.assignments = [];
    const syncs = farm.syncs.length;
    await waitUntil(() => farm.storedText("s1").includes("LATE"), "the late line to reach the server", 10_000);
    expect({ late: farm.storedText("s1").filter((line) => line === "LATE").length, syncsSince: farm.syncs.length - syncs }).toEqual({ late: 1, syncsSince: 0 });
  });

  it("on 409 LEASE_CONFLICT stops everything, reports nothing of it and registers again", async () => {
    await startFarm();
    farm.assignments = [SESSION("s1", "30")];
    const { agent, notices } = makeAgent();
    await waitUntil(() => farm.storedText("s1").includes("line 4"), "the task to run");
    // Held actions (running, then queued) are reported, so the server can tell a lost assignment.
    await waitUntil(() => farm.syncs.some((s) => s.actions.join(" ") === "t1 x1"), "a sync listing the held actions");
    const began = Date.now();
    farm.fence();
    await waitUntil(() => farm.registrations.length === 2 && farm.syncs.some((s) => s.leaseEpoch === 3), "a sync under the new lease");
    expect(Date.now() - began).toBeLessThan(10_000);
    expect(notices.some((n) => n.type === "lease_conflict")).toBe(true);
    expect(agent.executor.sessionIds).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(farm.finalStatus("t1")).toBeUndefined();
    expect(farm.finalStatus("x1")).toBeUndefined();
    const after = farm.syncs.filter((s) => s.leaseEpoch === 3);
    expect(after.every((s) => s.sessions.length === 0 && s.updates.length === 0 && s.actions.length === 0)).toBe(true);
  });

  it("retries after 503s with backoff, keeping the action running, and says when the server is back", async () => {
    await startFarm();
    farm.script(PROTOCOL_PATHS.register, { status: 503 }, { status: 503 });
    farm.assignments = [SESSION("s1", "0.5")];
    const { notices } = makeAgent();
    await waitUntil(() => farm.updates.some((u) => u.actionId === "t1"), "the task to start");
    farm.script(PROTOCOL_PATHS.sync, { status: 503 }, { status: 503 }, { status: 503 });
    farm.script(PROTOCOL_PATHS.logs, { status: 502 });
    await waitUntil(() => farm.finalStatus("x1") !== undefined, "the Session's end to be reported");
    expect(farm.finalStatus("t1")).toBe("SUCCEEDED");
    expect(farm.requests.filter((r) => r.path === PROTOCOL_PATHS.register).map((r) => r.status)).toEqual([503, 503, 200]);
    const unavailable = notices.filter((n) => n.type === "server_unavailable");
    expect(unavailable.length).toBeGreaterThanOrEqual(2);
    expect(unavailable[0]).toMatchObject({ message: expect.stringContaining("HTTP 503") });
    await waitUntil(() => notices.filter((n) => n.type === "server_available").length === unavailable.length, "a notice for each recovery");
  });

  it("sends refused lines again when the server's Retry-After says, not at its growing backoff (a full store answers; it is not down)", async () => {
    await startFarm();
    const refusal = { status: 503, body: { error: "UNAVAILABLE", message: "the farm's store is full" }, headers: { "retry-after": "1" } };
    farm.script(PROTOCOL_PATHS.logs, refusal, refusal, refusal, refusal);
    farm.assignments = [SESSION("s1")];
    // A backoff of 10 s, then 20 s, then 30 s: without the server's word the four refusals would cost 90 s.
    const { agent } = makeAgent({ retry: { initialMs: 10_000, maxMs: 30_000 } });
    await waitUntil(() => farm.finalStatus("x1") !== undefined && agent.logs.pending === 0, "every line stored after four refusals", 20_000);
    expect(farm.storedText("s1")).toContain("FARM_EXIT");
    const uploads = farm.requests.filter((r) => r.path === PROTOCOL_PATHS.logs);
    expect(uploads.slice(0, 5).map((r) => r.status)).toEqual([503, 503, 503, 503, 200]);
    // Never sooner than the server asked.
    const gaps = uploads.slice(1, 5).map((r, i) => r.at - (uploads[i] as { at: number }).at);
    expect(gaps.filter((gap) => gap < 1_000)).toEqual([]);
  }, 30_000);

  it("sends log lines again until the server acknowledges them", async () => {
    await startFarm();
    farm.ackLimit = 2;
    farm.script(PROTOCOL_PATHS.logs, { status: 503 });
    farm.assignments = [SESSION("s1")];
    const { agent } = makeAgent({ logBatchLines: 4 });
    await waitUntil(() => farm.finalStatus("x1") !== undefined && (farm.received.get("s1")?.length ?? 0) > 20, "lines to be re-sent");
    expect(agent.logs.pending).toBeGreaterThan(0);
    const received = farm.received.get("s1") ?? [];
    expect(received.filter((seq) => seq === 3).length).toBeGreaterThan(1);
    farm.ackLimit = null;
    await waitUntil(() => agent.logs.pending === 0, "every line acknowledged");
    const seqs = farm.storedSeqs("s1");
    expect(seqs).toEqual(seqs.map((_, i) => i));
    expect(farm.storedText("s1")).toContain("FARM_EXIT");
  });

  it("sends its own credential on sync and logs, never the pool token, and never in a body", async () => {
    await startFarm();
    farm.assignments = [SESSION("s1")];
    const { agent } = makeAgent();
    await waitUntil(() => farm.finalStatus("x1") !== undefined && agent.logs.pending === 0 && farm.requests.some((r) => r.path === PROTOCOL_PATHS.logs), "the Session and its log");
    const [register, ...rest] = farm.requests;
    expect(register).toMatchObject({ path: PROTOCOL_PATHS.register, authorization: `Bearer ${farm.token}` });
    expect(new Set(rest.map((r) => r.authorization))).toEqual(new Set([`Bearer ${farm.credentials[0]}`]));
    expect(farm.requests.filter((r) => JSON.stringify(r.body).includes("loom_wkr_"))).toEqual([]);
  });

  it("on 401 stops what it runs, rereads its token file and enrolls again with the token it finds", async () => {
    await startFarm();
    farm.assignments = [SESSION("s1", "30")];
    let file = farm.token;
    const { agent, notices } = makeAgent({ readToken: () => Promise.resolve(`${file}\n`) });
    await waitUntil(() => farm.storedText("s1").includes("line 4"), "the task to run");
    // The admin rotated the pool's token, put the new one in the file, and the old credential expired.
    farm.token = file = "rotated-pool-token-0123";
    farm.revoke();
    await waitUntil(() => farm.registrations.length === 2 && farm.syncs.some((s) => s.leaseEpoch === 2), "a sync after enrolling again");
    expect(notices.some((n) => n.type === "credential_refused")).toBe(true);
    expect(agent.executor.sessionIds).toEqual([]);
    expect(farm.requests.filter((r) => r.path === PROTOCOL_PATHS.register).map((r) => r.authorization)).toEqual(["Bearer pool-token-0123456789", "Bearer rotated-pool-token-0123"]);
    expect(farm.requests.at(-1)?.authorization).toBe(`Bearer ${farm.credentials[1]}`);
    expect(farm.finalStatus("t1")).toBeUndefined();
  });

  it("stops when enrolling again is refused (the token it holds was rotated out)", async () => {
    await startFarm();
    const { notices, done } = makeAgent();
    await waitUntil(() => farm.syncs.length > 0, "a first sync");
    farm.token = "rotated-pool-token-0123";
    farm.revoke();
    expect(await done).toBe("refused");
    expect(notices.map((n) => n.type)).toEqual(expect.arrayContaining(["credential_refused"]));
    expect(notices.at(-1)).toMatchObject({ type: "stopped", reason: "refused", message: expect.stringContaining("HTTP 401") });
  });

  it("keeps a task's log under the server's action cap and ships one line saying what it dropped", async () => {
    await startFarm();
    farm.logLimits = { actionChars: 10_000, sessionChars: 1_000_000 };
    farm.assignments = [assignment("s1", CHATTY, [task("p1", "Print")], true)];
    const { agent } = makeAgent();
    await waitUntil(() => farm.finalStatus("p1") !== undefined, "the task to end");
    await waitUntil(() => farm.storedText("s1").some((l) => l.startsWith("…")) && agent.logs.pending === 0, "the marker line");
    const text = farm.storedText("s1");
    expect(farm.storedSeqs("s1")).toEqual(text.map((_, i) => i));
    expect(text.join("").length).toBeLessThanOrEqual(10_000);
    expect(text.filter((l) => l.startsWith("…"))).toEqual([expect.stringMatching(/^… \d+ lines \(\d+ characters\) dropped: over the log cap of 0\.01 MiB per action$/)]);
    const dropped = Number(/^… (\d+) lines/.exec(text.at(-1)!)![1]);
    // The task's first lines, in order; the count also takes the runtime's own lines after the cap.
    const kept = text.filter((l) => /^\.+\d+$/.test(l)).map((l) => Number(l.replace(/^\.+/, "")));
    expect(kept).toEqual(kept.map((_, i) => i));
    expect(kept.length + dropped).toBeGreaterThanOrEqual(300);
    expect(kept.length + dropped).toBeLessThan(310);
  });

  it("stops when the server refuses its token", async () => {
    await startFarm();
    const { notices, done } = makeAgent({ token: "wrong" });
    expect(await done).toBe("refused");
    expect(notices.at(-1)).toMatchObject({ type: "stopped", reason: "refused", message: expect.stringContaining("HTTP 401: unknown worker token") });
  });

  it("drains when the server says stop, and a second drain stops at once", async () => {
    await startFarm();
    farm.assignments = [assignment("s1", JOB, [enter("e1", "job:Farm"), work("t1", "30"), work("t2", "0")])];
    const { agent, notices, done } = makeAgent();
    await waitUntil(() => farm.storedText("s1").includes("line 4"), "the task to run");
    farm.stop = true;
    await waitUntil(() => farm.syncs.some((s) => s.draining), "a draining sync");
    expect(notices.some((n) => n.type === "draining" && n.by === "server")).toBe(true);
    const began = Date.now();
    agent.drain();
    agent.drain();
    expect(await done).toBe("stopped");
    expect(Date.now() - began).toBeLessThan(5_000);
    expect(agent.executor.sessionIds).toEqual([]);
  });
});

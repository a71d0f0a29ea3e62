/**
 * Helpers for the tests of a worker given several servers: a fake farm with two listeners on one
 * state (fake-farm.ts), as two `loom serve` on one database; a job whose task prints, waits for a
 * file, and prints again; an agent given the servers, its notices timed, stopped after the test.
 */
import { PROTOCOL_PATHS, type ActionUpdate, type LogsRequest, type SyncRequest } from "../../lib/farm/protocol";
import { py, sh, TEST_PATH, tempRoot } from "../session/session-test-support";
import { WorkerAgent, type AgentNotice, type AgentStopReason, type WorkerAgentOptions } from "./agent";
import { FakeFarm, type FakeReplica } from "./fake-farm";
import { assignment, definition, enter, exit, task } from "./worker-test-support";

/** A task printing BEFORE lines, waiting for a file, then printing AFTER lines. */
const JOB = definition(
  "job-failover",
  `
  specificationVersion: jobtemplate-2023-09
  name: Failover
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
      - { name: Trigger, type: STRING, range: ["-"] }
    script:
      actions:
        onRun: ${py(
          "import os, sys, time\nfor i in range(5): print('BEFORE', i, flush=True)\nwhile sys.argv[1] != '-' and not os.path.exists(sys.argv[1]): time.sleep(0.02)\nfor i in range(5): print('AFTER', i, flush=True)",
          {},
          "{{Task.Param.Trigger}}",
        )}
  `,
);

/** A Session entering the environment, running the task and exiting: actions e-, t- and x-<sessionId>. */
export const SESSION = (sessionId: string, trigger = "-") =>
  assignment(sessionId, JOB, [enter(`e-${sessionId}`, "job:Farm"), task(`t-${sessionId}`, "Work", { Trigger: trigger }, "STRING"), exit(`x-${sessionId}`, "job:Farm")], true);

/** A fake farm with two replicas. */
export async function twoReplicas(): Promise<{ farm: FakeFarm; a: FakeReplica; b: FakeReplica }> {
  const farm = await new FakeFarm().start();
  const b = await farm.replica();
  return { farm, a: farm.replicas[0] as FakeReplica, b };
}

export type Timed = { notice: AgentNotice; at: number };

const agents: WorkerAgent[] = [];

/** Stops every agent the test started (call in afterEach, before closing the farm). */
export async function stopAgents(): Promise<void> {
  await Promise.all(agents.splice(0).map((a) => a.stop()));
}

/** An agent of `farm` given `serverUrl`, started; `moves` lists its server_moved notices with when they came. */
export function startAgent(farm: FakeFarm, serverUrl: string[], options: Partial<WorkerAgentOptions> = {}) {
  const notices: Timed[] = [];
  const agent = new WorkerAgent({
    serverUrl,
    token: farm.token,
    name: "failover-worker",
    capabilities: { amounts: { "amount.worker.vcpu": 2 }, attributes: { "attr.worker.os.family": ["linux"] } },
    rootDirectory: tempRoot(),
    baseEnvironment: { PATH: TEST_PATH },
    retry: { initialMs: 200, maxMs: 400 },
    onNotice: (notice) => notices.push({ notice, at: performance.now() }),
    ...options,
  });
  agents.push(agent);
  const done: Promise<AgentStopReason> = agent.start();
  const moves = () => notices.flatMap(({ notice, at }) => (notice.type === "server_moved" ? [{ ...notice, at }] : []));
  const count = (type: AgentNotice["type"]) => notices.filter((n) => n.notice.type === type).length;
  return { agent, notices, moves, count, done };
}

/** The requests `replica` answered with 200 on `path`. */
export const answered = (farm: FakeFarm, replica: FakeReplica, path: string) => farm.requests.filter((r) => r.replica === replica.index && r.path === path && r.status === 200);
export const updatesAt = (farm: FakeFarm, replica: FakeReplica): ActionUpdate[] => answered(farm, replica, PROTOCOL_PATHS.sync).flatMap((r) => (r.body as SyncRequest).updates);
export const seqsAt = (farm: FakeFarm, replica: FakeReplica): number[] => answered(farm, replica, PROTOCOL_PATHS.logs).flatMap((r) => (r.body as LogsRequest).lines.map((l) => l.seq));
export const ended = (u: ActionUpdate) => u.status !== "RUNNING";

export async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

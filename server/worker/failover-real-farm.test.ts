/**
 * "A applied the request, then died before answering", against the real server: one farm (SQLite,
 * the scheduler loop) behind two HTTP fronts, as two `loom serve` on one database, and a worker
 * agent given both. Front A applies one request and then dies (every connection cut before the
 * answer), or applies it only after the worker's timeout, when the worker has sent it again to B
 * and B applied it. The farm keeps the first of each (server/scheduler/apply-updates.ts,
 * server/store/log-lines.ts): the task completes once, and each log line is stored once.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PROTOCOL_PATHS, type LogsRequest, type SyncRequest } from "../../lib/farm/protocol";
import { apiHandler } from "../api/app-handler";
import { startNodeServer, type ServerHandler } from "../api/node-server";
import type { Farm } from "../context/farm";
import { doubleCompletions, FarmHarness, python, sleep, submitTemplate, taskRuns, waitFor, waitForJobEnd, type InProcessFarm } from "../farm-tests/farm-harness";
import { TEST_PATH, tempRoot } from "../session/session-test-support";
import { WorkerAgent, type AgentNotice } from "./agent";
import { hostFacts, standardCapabilities } from "./capabilities";

type Pick = (path: string, body: unknown) => boolean;

/** A front of the farm that can be told to mishandle the next request `fault.on` picks. */
interface Front {
  url: string;
  fault: ({ on: Pick } & ({ mode: "drop" } | { mode: "slow"; ms: number })) | null;
  /** Requests the front had the farm apply, numbered in the order the farm did, whichever front. */
  applied: Array<{ path: string; body: unknown; n: number }>;
  faulted: number;
  close(): Promise<void>;
}

let appliedCount = 0;

async function startFront(farm: Farm): Promise<Front> {
  const api = apiHandler(farm);
  const worker = api.plain!;
  const handler: ServerHandler = Object.assign((request: Request, info: Parameters<ServerHandler>[1]) => api(request, info), api, {
    plain: {
      prefix: worker.prefix,
      handle: async (request: Parameters<typeof worker.handle>[0]) => {
        const body: unknown = JSON.parse(request.body);
        const fault = front.fault?.on(request.path, body) ? front.fault : null;
        if (fault) front.fault = null;
        if (fault?.mode === "slow") await sleep(fault.ms);
        const answer = await worker.handle(request);
        front.applied.push({ path: request.path, body, n: appliedCount++ });
        if (!fault) return answer;
        front.faulted++;
        // Died right after its commit: the answer goes nowhere.
        if (fault.mode === "drop") await running.close();
        return answer;
      },
    },
  });
  const running = await startNodeServer(handler);
  const front: Front = { url: running.url, fault: null, applied: [], faulted: 0, close: () => running.close() };
  return front;
}

/** Prints BEFORE lines, waits for the file named by its parameter, prints AFTER lines. */
const TEMPLATE = {
  specificationVersion: "jobtemplate-2023-09",
  name: "Repeats",
  parameterDefinitions: [{ name: "Trigger", type: "STRING" }],
  steps: [
    {
      name: "Work",
      script: {
        actions: {
          onRun: python(
            "import os, sys, time\nfor i in range(5): print('BEFORE', i, flush=True)\nwhile not os.path.exists(sys.argv[1]): time.sleep(0.02)\nfor i in range(5): print('AFTER', i, flush=True)",
            "{{Param.Trigger}}",
          ),
        },
      },
    },
  ],
};

const TARGETS: Record<string, Pick> = {
  "the sync reporting the task's end": (path, body) => path === PROTOCOL_PATHS.sync && (body as SyncRequest).updates.some((u) => u.status === "SUCCEEDED"),
  "the upload of the task's last line": (path, body) => path === PROTOCOL_PATHS.logs && (body as LogsRequest).lines.some((l) => l.line === "AFTER 4"),
};

let h: FarmHarness;
let fronts: Front[] = [];
let agent: WorkerAgent | null = null;
beforeEach(() => {
  h = new FarmHarness();
});
afterEach(async () => {
  await agent?.stop();
  agent = null;
  await Promise.all(fronts.splice(0).map((f) => f.close()));
  await h.dispose();
});

describe("a request front A applied but never answered, sent again to front B of the real farm", () => {
  it.each([
    ["the sync reporting the task's end", "drop"],
    ["the sync reporting the task's end", "slow"],
    ["the upload of the task's last line", "drop"],
    ["the upload of the task's last line", "slow"],
  ] as const)(
    "%s, %s at A: the task completes once, each line is stored once",
    async (target, mode) => {
      const farm: InProcessFarm = await h.startFarm({ workerTimeoutSeconds: 10 });
      const [a, b] = (fronts = [await startFront(farm.farm), await startFront(farm.farm)]) as [Front, Front];
      const notices: AgentNotice[] = [];
      agent = new WorkerAgent({
        serverUrl: [a.url, b.url],
        token: farm.token,
        name: "repeats-worker",
        capabilities: standardCapabilities(hostFacts()),
        rootDirectory: tempRoot(),
        baseEnvironment: { PATH: TEST_PATH },
        retry: { initialMs: 200, maxMs: 400 },
        requestTimeoutMs: 1_000,
        onNotice: (notice) => notices.push(notice),
      });
      void agent.start();
      const trigger = join(tempRoot(), "go");
      const jobId = await submitTemplate(farm.api, TEMPLATE, { Trigger: trigger });
      const lines = async () => (await farm.api.logs.lines.query({ jobId, limit: 10_000 })).map((l) => l.line);
      await waitFor(async () => (await lines()).includes("BEFORE 4") && agent?.logs.pending === 0, "the task's first lines at A");
      const on = TARGETS[target]!;
      a.fault = mode === "drop" ? { mode, on } : { mode, on, ms: 2_500 };
      writeFileSync(trigger, "");

      const job = await waitForJobEnd(farm.api, jobId);
      await waitFor(() => a.faulted === 1 && agent?.logs.pending === 0, "the faulty request applied at A, and every line acknowledged");
      expect(job.status).toBe("SUCCEEDED");
      expect(notices.filter((n) => n.type === "server_moved").map((n) => n.type === "server_moved" && [n.from, n.to])).toEqual([[a.url, b.url]]);
      // The request reached the farm twice: by A, and by B (first, when A was slow).
      const order = [...a.applied.map((r) => ({ ...r, front: "A" })), ...b.applied.map((r) => ({ ...r, front: "B" }))].filter((r) => on(r.path, r.body)).sort((x, y) => x.n - y.n);
      expect(order.map((r) => r.front)).toEqual(mode === "drop" ? ["A", "B"] : ["B", "A"]);

      // One run of the task, SUCCEEDED, completed once; no retry, no interruption.
      expect((await taskRuns(farm.farm, jobId)).map((r) => r.status)).toEqual(["SUCCEEDED"]);
      expect(await doubleCompletions(farm.farm, jobId)).toEqual([]);
      expect(job.counts.SUCCEEDED).toBe(1);
      const { tasks } = await farm.api.jobs.tasks.query({ stepId: job.steps[0]!.id });
      expect(tasks.map((t) => [t.status, t.failureCount, t.interruptionCount])).toEqual([["SUCCEEDED", 0, 0]]);

      // Every line once, in order.
      const stored = await lines();
      const printed = [...[0, 1, 2, 3, 4].map((i) => `BEFORE ${i}`), ...[0, 1, 2, 3, 4].map((i) => `AFTER ${i}`)];
      expect(stored.filter((l) => /^(BEFORE|AFTER) \d$/.test(l))).toEqual(printed);
      expect(new Set(stored).size).toBe(stored.length);
    },
    30_000,
  );
});

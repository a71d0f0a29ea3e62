/**
 * "Why isn't this task running?" (issue 11 point 8), as a pure function over what the scheduler
 * knows (CONVENTIONS rule 6): the task, its job and steps, the fleet, and the ready work ahead of
 * it. Each reason comes from its own small check, so a new scheduling rule adds one check and its
 * reason kind; the answer lists every reason that applies, in the order a wrangler acts on them.
 */
import { stepBlockers, type BlockerStep } from "../../lib/farm/step-blockers";
import type { TaskStatus, WorkerStatus, DrainMode } from "../../lib/farm/statuses";
import { type HostRequirements, matchHostRequirements, type WorkerCapabilities } from "../../lib/openjd";
import { incompatibility } from "./plan";

export const WAIT_REASON_KINDS = [
  "finished",
  "running",
  "assigned",
  "jobCanceled",
  "suspended",
  "dependencies",
  "blocked",
  "upstreamTasks",
  "notCompatible",
  "noWorkers",
  "queue",
  "noFreeWorker",
  "startsSoon",
  "retryDelay",
  "keptAway",
] as const;
export type WaitReasonKind = (typeof WAIT_REASON_KINDS)[number];

export interface WaitReason {
  kind: WaitReasonKind;
  /** One plain sentence for the job page and `loom`. */
  text: string;
}

export interface WaitWorker {
  name: string;
  status: WorkerStatus;
  drain: DrainMode | null;
  disabled: boolean;
  poolEnabled: boolean;
  /** Holds a Session that has not ended. */
  busy: boolean;
  /** The job's per-worker failure rule keeps it away from this job. */
  keptAway: boolean;
  capabilities: WorkerCapabilities;
}

/** An upstream task as a reason names it. */
export interface UpstreamFact {
  step: string;
  parameters: Readonly<Record<string, { value: string }>>;
  status: TaskStatus;
}

/** What a task waits for among other tasks (TASK_DEPENDENCIES). */
export interface UpstreamFacts {
  /** Its requirements not met yet (all-of edges, any-of groups). */
  waiting: number;
  /** Upstream tasks that ended without success while it needs them (the first few), and how many. */
  blockedBy: readonly UpstreamFact[];
  blockedCount: number;
  /** Upstream tasks it still waits for (the first few). */
  waitingOn: readonly UpstreamFact[];
}

/** Ready work the dispatcher offers before this task: a step of a job ahead in order (or an earlier step of its own job). */
export interface QueuedStep {
  hostRequirements: HostRequirements | null;
  ready: number;
}

export interface WaitFacts {
  now: number;
  /** retryNotBefore: a READY task waiting out its retry delay is not dispatched before then. */
  task: { index: number; status: TaskStatus; failureCount: number; workerName: string | null; retryNotBefore: number | null };
  job: { suspended: boolean; canceled: boolean };
  step: BlockerStep & { hostRequirements: HostRequirements | null; incompatibleReason: string | null };
  steps: readonly BlockerStep[];
  /** Null when it waits on no other task. */
  upstream: UpstreamFacts | null;
  workers: readonly WaitWorker[];
  /** READY tasks of the same step with a lower index (dispatched first). */
  readyBeforeInStep: number;
  queue: readonly QueuedStep[];
}

type Check = (facts: WaitFacts) => WaitReason[];

const OFFLINE: ReadonlySet<WorkerStatus> = new Set(["STOPPED", "NOT_RESPONDING"]);

/** Workers that take work at all: an enabled pool, not disabled (what compatibility.ts decides on). */
function eligible(workers: readonly WaitWorker[]): WaitWorker[] {
  return workers.filter((w) => w.poolEnabled && !w.disabled);
}

function compatibleWorkers(facts: WaitFacts): WaitWorker[] {
  return facts.workers.filter((w) => matchHostRequirements(facts.step.hostRequirements, w.capabilities).ok);
}

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

const finished: Check = ({ task }) => {
  switch (task.status) {
    case "SUCCEEDED":
      return [{ kind: "finished", text: "It has finished: it succeeded." }];
    case "FAILED":
      return [{ kind: "finished", text: `It failed (${plural(task.failureCount, "failed attempt")}) and used up its retries: Retry failed runs it again.` }];
    case "CANCELED":
      return [{ kind: "finished", text: "It was canceled: Requeue runs it again." }];
    default:
      return [];
  }
};

const underWay: Check = ({ task }) => {
  const worker = task.workerName ?? "a worker";
  if (task.status === "RUNNING") return [{ kind: "running", text: `It is running on ${worker}.` }];
  if (task.status === "ASSIGNED") return [{ kind: "assigned", text: `It is assigned to ${worker}: it starts once its Session has entered its environments and run the tasks queued before it.` }];
  return [];
};

const canceledJob: Check = ({ job, task }) => (job.canceled && task.status !== "CANCELED" ? [{ kind: "jobCanceled", text: "The job was canceled." }] : []);

const suspended: Check = ({ job, task }) => {
  if (task.status !== "SUSPENDED") return [];
  return [{ kind: "suspended", text: job.suspended ? "The job is suspended: Resume the job to run it." : "This task is suspended: Resume it to run it." }];
};

const dependencies: Check = ({ task, step, steps }) => {
  if (task.status !== "PENDING") return [];
  return stepBlockers(step, steps).map((b) =>
    b.kind === "waiting"
      ? { kind: "dependencies", text: `Waiting on step ${b.step}: ${b.succeeded.toLocaleString("en")} of ${b.taskCount.toLocaleString("en")} succeeded.` }
      : {
          kind: "dependencies",
          text: `Will not run: step ${b.step} ${b.why} (${plural(b.count, "task")}); ${b.why === "not compatible" ? "a matching worker" : "a retry or requeue of it"} lets it go on.`,
        },
  );
};

/** "ExportPerFrame Frame=7 FAILED". */
export function describeUpstream(task: UpstreamFact): string {
  return [task.step, ...Object.entries(task.parameters).map(([name, p]) => `${name}=${p.value}`), task.status].join(" ");
}

const NAMED = 3;

function named(tasks: readonly UpstreamFact[], total: number): string {
  const shown = tasks.slice(0, NAMED);
  const more = total - shown.length;
  return shown.map(describeUpstream).join(", ") + (more > 0 ? ` and ${more.toLocaleString("en")} more` : "");
}

const upstreamTasks: Check = ({ task, upstream }) => {
  if (task.status !== "PENDING" || !upstream || upstream.waiting === 0) return [];
  if (upstream.blockedCount > 0) {
    const one = upstream.blockedCount === 1;
    return [{ kind: "blocked", text: `Blocked: ${named(upstream.blockedBy, upstream.blockedCount)}; a retry or requeue of ${one ? "it" : "them"} that succeeds lets it go on.` }];
  }
  return [{ kind: "upstreamTasks", text: `Waiting for ${plural(upstream.waiting, "task it depends on", "tasks it depends on")}: ${named(upstream.waitingOn, upstream.waiting)}.` }];
};

const WAITING_FOR_WORK: ReadonlySet<TaskStatus> = new Set(["READY", "PENDING", "NOT_COMPATIBLE"]);

const compatibility: Check = (facts) => {
  if (!WAITING_FOR_WORK.has(facts.task.status)) return [];
  const capabilities = eligible(facts.workers).map((w) => w.capabilities);
  if (capabilities.length === 0) return [{ kind: "noWorkers", text: "No worker of an enabled pool is registered: start one (loom worker) or enable a pool." }];
  // What the scheduler stored, else the same judgement now (the refresh may not have run yet).
  const reason = facts.step.incompatibleReason ?? incompatibility(facts.step.hostRequirements, capabilities);
  return reason ? [{ kind: "notCompatible", text: `Not compatible: ${reason}.` }] : [];
};

const queue: Check = (facts) => {
  if (facts.task.status !== "READY") return [];
  const mine = eligible(compatibleWorkers(facts));
  if (mine.length === 0) return [];
  // Work ahead counts only when a worker that could run this task could run it instead.
  const competing = facts.queue.filter((q) => mine.some((w) => matchHostRequirements(q.hostRequirements, w.capabilities).ok)).reduce((n, q) => n + q.ready, 0);
  const ahead = competing + facts.readyBeforeInStep;
  if (ahead === 0) return [];
  return [
    { kind: "queue", text: `${plural(ahead, "ready task is", "ready tasks are")} ahead of it in the queue (higher priority, earlier jobs, earlier tasks of this job) that the same workers can run.` },
  ];
};

const freeWorker: Check = (facts) => {
  if (facts.task.status !== "READY") return [];
  const compatible = compatibleWorkers(facts);
  if (compatible.length === 0) return []; // compatibility's reason says why
  const tally = { busy: 0, offline: 0, draining: 0, disabled: 0, "kept away by the failure rule": 0, free: 0 };
  for (const w of compatible) {
    if (w.disabled || !w.poolEnabled) tally.disabled++;
    else if (w.keptAway) tally["kept away by the failure rule"]++;
    else if (OFFLINE.has(w.status)) tally.offline++;
    else if (w.drain !== null || w.status === "STOPPING") tally.draining++;
    else if (w.busy) tally.busy++;
    else tally.free++;
  }
  if (tally.free > 0) return [{ kind: "startsSoon", text: `${plural(tally.free, "compatible worker is", "compatible workers are")} free: the next one to sync takes it (within seconds).` }];
  const parts = (["busy", "offline", "draining", "disabled", "kept away by the failure rule"] as const)
    .filter((k) => tally[k] > 0)
    .map((k) => `${tally[k].toLocaleString("en")} ${k === "disabled" ? "disabled (or in a disabled pool)" : k}`);
  return [{ kind: "noFreeWorker", text: `No free worker: of ${plural(compatible.length, "compatible worker")}, ${parts.join(", ")}.` }];
};

const retryDelay: Check = ({ task, now }) => {
  if (task.status !== "READY" || task.retryNotBefore === null || task.retryNotBefore <= now) return [];
  const seconds = Math.ceil((task.retryNotBefore - now) / 1000);
  return [{ kind: "retryDelay", text: `It waits out its retry delay after ${plural(task.failureCount, "failed attempt")}: it may start again in ${plural(seconds, "second")}.` }];
};

const keptAway: Check = (facts) => {
  if (!WAITING_FOR_WORK.has(facts.task.status)) return [];
  const away = eligible(compatibleWorkers(facts)).filter((w) => w.keptAway);
  if (away.length === 0) return [];
  const names =
    away
      .slice(0, 5)
      .map((w) => w.name)
      .join(", ") + (away.length > 5 ? ` and ${away.length - 5} more` : "");
  return [
    { kind: "keptAway", text: `The job's failure rule keeps ${plural(away.length, "compatible worker")} away (${names}): its tasks failed there too often. A wrangler can clear it on this page.` },
  ];
};

/** The checks, in the order their reasons are shown. */
const CHECKS: readonly Check[] = [finished, underWay, canceledJob, suspended, dependencies, upstreamTasks, compatibility, retryDelay, keptAway, queue, freeWorker];

export function explainWait(facts: WaitFacts): WaitReason[] {
  return CHECKS.flatMap((check) => check(facts));
}

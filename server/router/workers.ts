/** Pools and workers: everyone signed in reads them; admins create pools and show their token once, rotate, enable, drain, disable. */
import { tracked } from "@trpc/server";
import { z } from "zod";
import { RULES } from "../../lib/farm/access";
import { DRAIN_MODES } from "../../lib/farm/statuses";
import { workerTimeline, workerTimelineInput } from "../queries/worker-timeline";
import { listPools, listWorkers } from "../queries/workers";
import { drainPool, drainWorker, removeWorker, setWorkerDisabled, undrainWorker } from "../services/drain-worker";
import { createPool, rotatePoolToken, setPoolEnabled } from "../services/pools";
import { farmChanges } from "./farm-changes";
import { actorFor, authorized, router } from "./trpc";

const workerId = z.object({ workerId: z.string().min(1).max(100) });
const poolId = z.object({ poolId: z.string().min(1).max(100) });

/**
 * What moves the admin views: "workers" (registered, drained, disabled, lost, a pool enabled),
 * "worker-status" (a sync changed a worker's status), "pools" (created, token rotated) and
 * "jobs" (a worker's current task changed with its job).
 */
const FLEET_EVENTS = ["workers", "worker-status", "pools", "jobs"] as const;
/** Short enough to feel instant, long enough that a pool-wide drain is read once. */
const SETTLE_MS = 300;
/** Heartbeats are not events; the views re-read this often to keep "last heard from" honest. */
const REFRESH_MS = 10_000;

export const poolsRouter = router({
  list: authorized(RULES.read).query(({ ctx }) => listPools(ctx.farm)),
  create: authorized(RULES.admin)
    .input(z.object({ name: z.string().max(64), description: z.string().max(500).optional() }))
    .mutation(({ ctx, input }) => createPool(ctx.farm, input, actorFor(ctx))),
  rotateToken: authorized(RULES.admin)
    .input(poolId)
    .mutation(({ ctx, input }) => rotatePoolToken(ctx.farm, input.poolId, actorFor(ctx))),
  drain: authorized(RULES.admin)
    .input(poolId.extend({ mode: z.enum(DRAIN_MODES) }))
    .mutation(({ ctx, input }) => drainPool(ctx.farm, input.poolId, input.mode, actorFor(ctx))),
  setEnabled: authorized(RULES.admin)
    .input(poolId.extend({ enabled: z.boolean() }))
    .mutation(({ ctx, input }) => setPoolEnabled(ctx.farm, input.poolId, input.enabled, actorFor(ctx))),
  /** The pool list, now and after each change (ids count per connection; every item is the whole list). */
  onChange: authorized(RULES.read).subscription(async function* ({ ctx, signal }) {
    let n = 0;
    for await (const _ of farmChanges(ctx.farm.events, FLEET_EVENTS, { signal, settleMs: SETTLE_MS, refreshMs: REFRESH_MS })) yield tracked(String(++n), await listPools(ctx.farm));
  }),
});

export const workersRouter = router({
  list: authorized(RULES.read)
    .input(z.object({ poolId: z.string().max(100).optional() }).default({}))
    .query(({ ctx, input }) => listWorkers(ctx.farm, input.poolId)),
  /** Each worker's Sessions over a window of at most a day: environment setup, task runs and teardown. */
  timeline: authorized(RULES.read)
    .input(workerTimelineInput)
    .query(({ ctx, input }) => workerTimeline(ctx.farm, input)),
  drain: authorized(RULES.admin)
    .input(workerId.extend({ mode: z.enum(DRAIN_MODES) }))
    .mutation(({ ctx, input }) => drainWorker(ctx.farm, input.workerId, input.mode, actorFor(ctx))),
  undrain: authorized(RULES.admin)
    .input(workerId)
    .mutation(({ ctx, input }) => undrainWorker(ctx.farm, input.workerId, actorFor(ctx))),
  setDisabled: authorized(RULES.admin)
    .input(workerId.extend({ disabled: z.boolean() }))
    .mutation(({ ctx, input }) => setWorkerDisabled(ctx.farm, input.workerId, input.disabled, actorFor(ctx))),
  remove: authorized(RULES.admin)
    .input(workerId)
    .mutation(async ({ ctx, input }) => {
      await removeWorker(ctx.farm, input.workerId, actorFor(ctx));
      return { removed: input.workerId };
    }),
  /** The worker list (of one pool, or all), now and after each change; every item is the whole list. */
  onChange: authorized(RULES.read)
    .input(z.object({ poolId: z.string().max(100).optional() }).default({}))
    .subscription(async function* ({ ctx, input, signal }) {
      let n = 0;
      for await (const _ of farmChanges(ctx.farm.events, FLEET_EVENTS, { signal, settleMs: SETTLE_MS, refreshMs: REFRESH_MS })) yield tracked(String(++n), await listWorkers(ctx.farm, input.poolId));
    }),
});

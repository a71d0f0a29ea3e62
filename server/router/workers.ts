/** Pools and workers (admins): list, create pools and show their token once, rotate, enable, drain, disable, and live changes. */
import { tracked } from "@trpc/server";
import { z } from "zod";
import { DRAIN_MODES } from "../../lib/farm/statuses";
import { listPools, listWorkers } from "../queries/workers";
import { drainPool, drainWorker, setWorkerDisabled, undrainWorker } from "../services/drain-worker";
import { createPool, rotatePoolToken, setPoolEnabled } from "../services/pools";
import { farmChanges } from "./farm-changes";
import { publicProcedure, router } from "./trpc";

const workerId = z.object({ workerId: z.string().min(1) });

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
  list: publicProcedure.query(({ ctx }) => listPools(ctx.farm)),
  create: publicProcedure.input(z.object({ name: z.string(), description: z.string().max(500).optional() })).mutation(({ ctx, input }) => createPool(ctx.farm, input)),
  rotateToken: publicProcedure.input(z.object({ poolId: z.string().min(1) })).mutation(({ ctx, input }) => rotatePoolToken(ctx.farm, input.poolId)),
  drain: publicProcedure.input(z.object({ poolId: z.string().min(1), mode: z.enum(DRAIN_MODES) })).mutation(({ ctx, input }) => drainPool(ctx.farm, input.poolId, input.mode)),
  setEnabled: publicProcedure.input(z.object({ poolId: z.string().min(1), enabled: z.boolean() })).mutation(({ ctx, input }) => setPoolEnabled(ctx.farm, input.poolId, input.enabled)),
  /** The pool list, now and after each change (ids count per connection; every item is the whole list). */
  onChange: publicProcedure.subscription(async function* ({ ctx, signal }) {
    let n = 0;
    for await (const _ of farmChanges(ctx.farm.events, FLEET_EVENTS, { signal, settleMs: SETTLE_MS, refreshMs: REFRESH_MS })) yield tracked(String(++n), listPools(ctx.farm));
  }),
});

export const workersRouter = router({
  list: publicProcedure.input(z.object({ poolId: z.string().optional() }).default({})).query(({ ctx, input }) => listWorkers(ctx.farm, input.poolId)),
  drain: publicProcedure.input(workerId.extend({ mode: z.enum(DRAIN_MODES) })).mutation(({ ctx, input }) => drainWorker(ctx.farm, input.workerId, input.mode)),
  undrain: publicProcedure.input(workerId).mutation(({ ctx, input }) => undrainWorker(ctx.farm, input.workerId)),
  setDisabled: publicProcedure.input(workerId.extend({ disabled: z.boolean() })).mutation(({ ctx, input }) => setWorkerDisabled(ctx.farm, input.workerId, input.disabled)),
  /** The worker list (of one pool, or all), now and after each change; every item is the whole list. */
  onChange: publicProcedure.input(z.object({ poolId: z.string().optional() }).default({})).subscription(async function* ({ ctx, input, signal }) {
    let n = 0;
    for await (const _ of farmChanges(ctx.farm.events, FLEET_EVENTS, { signal, settleMs: SETTLE_MS, refreshMs: REFRESH_MS })) yield tracked(String(++n), listWorkers(ctx.farm, input.poolId));
  }),
});

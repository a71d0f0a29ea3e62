/** Pools and workers (admins): list, create pools and show their token once, rotate, enable, drain, disable. */
import { z } from "zod";
import { DRAIN_MODES } from "../../lib/farm/statuses";
import { listPools, listWorkers } from "../queries/workers";
import { drainPool, drainWorker, setWorkerDisabled, undrainWorker } from "../services/drain-worker";
import { createPool, rotatePoolToken, setPoolEnabled } from "../services/pools";
import { publicProcedure, router } from "./trpc";

const workerId = z.object({ workerId: z.string().min(1) });

export const poolsRouter = router({
  list: publicProcedure.query(({ ctx }) => listPools(ctx.farm)),
  create: publicProcedure.input(z.object({ name: z.string(), description: z.string().max(500).optional() })).mutation(({ ctx, input }) => createPool(ctx.farm, input)),
  rotateToken: publicProcedure.input(z.object({ poolId: z.string().min(1) })).mutation(({ ctx, input }) => rotatePoolToken(ctx.farm, input.poolId)),
  drain: publicProcedure.input(z.object({ poolId: z.string().min(1), mode: z.enum(DRAIN_MODES) })).mutation(({ ctx, input }) => drainPool(ctx.farm, input.poolId, input.mode)),
  setEnabled: publicProcedure.input(z.object({ poolId: z.string().min(1), enabled: z.boolean() })).mutation(({ ctx, input }) => setPoolEnabled(ctx.farm, input.poolId, input.enabled)),
});

export const workersRouter = router({
  list: publicProcedure.input(z.object({ poolId: z.string().optional() }).default({})).query(({ ctx, input }) => listWorkers(ctx.farm, input.poolId)),
  drain: publicProcedure.input(workerId.extend({ mode: z.enum(DRAIN_MODES) })).mutation(({ ctx, input }) => drainWorker(ctx.farm, input.workerId, input.mode)),
  undrain: publicProcedure.input(workerId).mutation(({ ctx, input }) => undrainWorker(ctx.farm, input.workerId)),
  setDisabled: publicProcedure.input(workerId.extend({ disabled: z.boolean() })).mutation(({ ctx, input }) => setWorkerDisabled(ctx.farm, input.workerId, input.disabled)),
});

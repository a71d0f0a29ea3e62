/** Job retention (admins): how many finished jobs are older than N days, and archiving or deleting them. */
import { z } from "zod";
import { RULES } from "../../lib/farm/access";
import { purgeJobs, retentionPreview } from "../services/purge-jobs";
import { actorFor, authorized, router } from "./trpc";

/** Days; the farm's jobRetentionDays (LOOM_JOB_RETENTION_DAYS) when absent. */
const olderThanDays = z.number().int().min(0).max(36_500).optional();

export const retentionRouter = router({
  preview: authorized(RULES.admin)
    .input(z.object({ olderThanDays }).default({}))
    .query(({ ctx, input }) => retentionPreview(ctx.farm, input.olderThanDays)),
  purge: authorized(RULES.admin)
    .input(z.object({ olderThanDays, mode: z.enum(["archive", "delete"]) }))
    .mutation(({ ctx, input }) => purgeJobs(ctx.farm, input, actorFor(ctx))),
});

/** The farm overview (admins' dashboard): one snapshot, and the same pushed as the farm changes. */
import { tracked } from "@trpc/server";
import { z } from "zod";
import { getOverview } from "../queries/overview";
import { farmChanges } from "./farm-changes";
import { RULES } from "../../lib/farm/access";
import { authorized, router } from "./trpc";

const overviewInput = z
  .object({
    minutes: z
      .number()
      .int()
      .min(1)
      .max(24 * 60)
      .default(60),
  })
  .default({ minutes: 60 });

/** A busy farm changes many times a second; a dashboard needs at most one read a second. */
const SETTLE_MS = 1_000;
/** Without events the chart's window still slides. */
const REFRESH_MS = 15_000;

export const overviewRouter = router({
  get: authorized(RULES.read)
    .input(overviewInput)
    .query(({ ctx, input }) => getOverview(ctx.farm, input)),
  onChange: authorized(RULES.read)
    .input(overviewInput)
    .subscription(async function* ({ ctx, input, signal }) {
      let n = 0;
      const changes = farmChanges(ctx.farm.events, ["jobs", "workers", "worker-status"], { signal, settleMs: SETTLE_MS, refreshMs: REFRESH_MS });
      for await (const _ of changes) yield tracked(String(++n), await getOverview(ctx.farm, input));
    }),
});

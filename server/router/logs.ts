/**
 * Log lines: a page by id, and the live follow (backfill from the database, then new lines as
 * workers upload them), each line `tracked` by its id so a reconnecting browser resumes exactly
 * after the last line it received.
 */
import { on } from "node:events";
import { tracked } from "@trpc/server";
import { z } from "zod";
import { logLines, logLinesInput } from "../queries/sessions";
import { publicProcedure, router } from "./trpc";

export const logsRouter = router({
  lines: publicProcedure.input(logLinesInput).query(({ ctx, input }) => logLines(ctx.farm, input)),
  follow: publicProcedure
    .input(z.object({ sessionId: z.string().min(1).optional(), jobId: z.string().min(1).optional(), actionId: z.string().optional(), lastEventId: z.string().nullish() }))
    .subscription(async function* ({ ctx, input, signal }) {
      // Listen first, then backfill: a line stored in between is read by the next query.
      const wakeups = on(ctx.farm.events, "logs", { signal });
      let after = input.lastEventId ? Number(input.lastEventId) || 0 : 0;
      const filter = { ...(input.sessionId ? { sessionId: input.sessionId } : {}), ...(input.jobId ? { jobId: input.jobId } : {}), ...(input.actionId ? { actionId: input.actionId } : {}) };
      const drain = function* () {
        for (;;) {
          const page = logLines(ctx.farm, { ...filter, afterId: after, limit: 2000 });
          for (const line of page) {
            after = line.id;
            yield tracked(String(line.id), line);
          }
          if (page.length < 2000) return;
        }
      };
      yield* drain();
      try {
        for await (const [sessionId] of wakeups) {
          if (input.sessionId && sessionId !== input.sessionId) continue;
          yield* drain();
        }
      } catch (error) {
        if (!signal?.aborted) throw error;
      }
    }),
});

/**
 * Log lines: a page by id, and the live follow (backfill from the database, then new lines as
 * workers upload them), each line `tracked` by its id so a reconnecting browser resumes exactly
 * after the last line it received.
 */
import { tracked } from "@trpc/server";
import { z } from "zod";
import { getSession, logLines, logLinesInput, type LogLineView } from "../queries/sessions";
import type { Farm } from "../context/farm";
import type { FarmEventBus, LogsEvent } from "../store/events";
import { RULES } from "../../lib/farm/access";
import { authorized, router } from "./trpc";
import { wakeups, type Wakeups } from "./wakeups";

const PAGE = 2000;

/**
 * Uploads that concern one view wake it (wakeups.ts): uploads of other Sessions or jobs do not.
 * (An action's view wakes on every upload of its Session: the event does not name actions.)
 */
export function linesWakeups(events: FarmEventBus, view: { sessionId?: string; jobId?: string }, signal: AbortSignal | undefined): Wakeups {
  return wakeups(events, ["logs"], signal, (event: LogsEvent) => !((view.sessionId && event.sessionId !== view.sessionId) || (view.jobId && event.jobId !== view.jobId)));
}

const followInput = z.object({ sessionId: z.string().min(1).optional(), jobId: z.string().min(1).optional(), actionId: z.string().optional(), lastEventId: z.string().nullish() });

/**
 * The pages of lines a live view reads: the backfill after `lastEventId`, then a page whenever an
 * upload it follows is stored. Listens first, then backfills: a line stored in between is read by
 * the next query.
 */
async function* linePages(farm: Farm, input: z.infer<typeof followInput>, signal: AbortSignal | undefined): AsyncGenerator<LogLineView[]> {
  const wakeups = linesWakeups(farm.events, input, signal);
  let after = input.lastEventId ? Number(input.lastEventId) || 0 : 0;
  const filter = { ...(input.sessionId ? { sessionId: input.sessionId } : {}), ...(input.jobId ? { jobId: input.jobId } : {}), ...(input.actionId ? { actionId: input.actionId } : {}) };
  try {
    do {
      for (;;) {
        wakeups.clear();
        const page = await logLines(farm, { ...filter, afterId: after, limit: PAGE });
        if (page.length > 0) {
          after = page[page.length - 1]!.id;
          yield page;
        }
        if (page.length < PAGE) break;
      }
    } while (await wakeups.next());
  } finally {
    wakeups.close();
  }
}

export const logsRouter = router({
  /** The Session a log belongs to, with its actions in order (the Session page's timeline). */
  session: authorized(RULES.read)
    .input(z.object({ sessionId: z.string().min(1), jobId: z.string().min(1).optional() }))
    .query(({ ctx, input }) => getSession(ctx.farm, input.sessionId, input.jobId)),
  lines: authorized(RULES.read)
    .input(logLinesInput)
    .query(({ ctx, input }) => logLines(ctx.farm, input)),
  /** Line by line, each tracked by its id. */
  follow: authorized(RULES.read)
    .input(followInput)
    .subscription(async function* ({ ctx, input, signal }) {
      for await (const page of linePages(ctx.farm, input, signal)) for (const line of page) yield tracked(String(line.id), line);
    }),
  /**
   * The same lines as `follow`, a page per event (up to 2,000 lines, as read), tracked by the
   * page's last id. At 10,000 lines a second an event per line costs the server and the browser
   * more than the lines themselves; a page is delivered whole or not at all, so resuming after
   * its last id loses and repeats nothing.
   */
  followBatches: authorized(RULES.read)
    .input(followInput)
    .subscription(async function* ({ ctx, input, signal }) {
      for await (const page of linePages(ctx.farm, input, signal)) yield tracked(String(page[page.length - 1]!.id), page);
    }),
});

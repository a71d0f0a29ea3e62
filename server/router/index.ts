/** The application's tRPC router: what the portal and `loom submit` / `loom job …` call. */
import { jobsRouter } from "./jobs";
import { logsRouter } from "./logs";
import { router } from "./trpc";
import { poolsRouter, workersRouter } from "./workers";

export const appRouter = router({
  jobs: jobsRouter,
  logs: logsRouter,
  pools: poolsRouter,
  workers: workersRouter,
});

export type AppRouter = typeof appRouter;

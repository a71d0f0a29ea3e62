/** The application's tRPC router: what the portal and `loom submit` / `loom job …` call. */
import { jobsRouter } from "./jobs";
import { logsRouter } from "./logs";
import { overviewRouter } from "./overview";
import { templatesRouter } from "./templates";
import { router } from "./trpc";
import { poolsRouter, workersRouter } from "./workers";

export const appRouter = router({
  jobs: jobsRouter,
  logs: logsRouter,
  overview: overviewRouter,
  pools: poolsRouter,
  workers: workersRouter,
  templates: templatesRouter,
});

export type AppRouter = typeof appRouter;

/** The application's tRPC router: what the portal and `loom submit` / `loom job …` call. Every procedure declares its rule (trpc.ts). */
import { auditRouter } from "./audit";
import { authRouter } from "./auth";
import { jobsRouter } from "./jobs";
import { logsRouter } from "./logs";
import { overviewRouter } from "./overview";
import { retentionRouter } from "./retention";
import { templatesRouter } from "./templates";
import { tokensRouter } from "./tokens";
import { router } from "./trpc";
import { usersRouter } from "./users";
import { poolsRouter, workersRouter } from "./workers";

export const appRouter = router({
  auth: authRouter,
  tokens: tokensRouter,
  users: usersRouter,
  audit: auditRouter,
  jobs: jobsRouter,
  logs: logsRouter,
  overview: overviewRouter,
  pools: poolsRouter,
  workers: workersRouter,
  templates: templatesRouter,
  retention: retentionRouter,
});

export type AppRouter = typeof appRouter;

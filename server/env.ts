/**
 * The only place that reads `process.env` (CONVENTIONS): the farm server's settings, parsed and
 * checked once. `loom serve` sets them for the Next.js server it starts.
 */
import { z } from "zod";

const schema = z.object({
  LOOM_DATA_DIR: z.string().min(1).default("./data"),
  /** When set, the pool named LOOM_POOL_NAME is created or given this token at start. */
  LOOM_POOL_TOKEN: z.string().min(16).optional(),
  LOOM_POOL_NAME: z.string().min(1).default("default"),
  LOOM_SYNC_INTERVAL_SECONDS: z.coerce.number().positive().default(15),
  LOOM_WORKER_TIMEOUT_SECONDS: z.coerce.number().positive().default(75),
  /** The worker agent's token (so it need not appear on a command line). */
  LOOM_WORKER_TOKEN: z.string().optional(),
  LOOM_SERVER: z.string().url().optional(),
  /**
   * Where `next build` writes the web app (relative to the repository). Separate folders let
   * several checkouts' builds and end-to-end runs share a machine without overwriting each other.
   */
  LOOM_NEXT_DIST_DIR: z.string().min(1).default(".next"),
  /** Set by `loom serve` for the processes it starts: they stop when it is gone (parent-watch.ts). */
  LOOM_PARENT_PID: z.coerce.number().int().positive().optional(),
});

export type ServerEnv = z.infer<typeof schema>;

let cached: ServerEnv | null = null;

export function serverEnv(): ServerEnv {
  if (cached) return cached;
  const parsed = schema.safeParse(process.env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`invalid Loom environment settings: ${problems}`);
  }
  cached = parsed.data;
  return cached;
}

/** The process environment as a plain record (for child processes and Sessions). */
export function processEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  return env;
}

/** The environment for a child process this one starts: ours plus `extra`. */
export function childEnvironment(extra: Record<string, string>): NodeJS.ProcessEnv {
  return { ...process.env, ...extra };
}

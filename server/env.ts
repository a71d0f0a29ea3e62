/**
 * The only place that reads `process.env` (CONVENTIONS): the farm server's settings, parsed and
 * checked once. `loom serve` sets them for the Next.js server it starts.
 */
import { z } from "zod";

const schema = z.object({
  LOOM_DATA_DIR: z.string().min(1).default("./data"),
  /**
   * PostgreSQL instead of the data folder's SQLite file (`postgres://user:password@host:5432/db`):
   * several `loom serve` replicas may share it. A credential: never passed to workers or tasks.
   */
  LOOM_DATABASE_URL: z
    .string()
    .regex(/^postgres(?:ql)?:\/\//i, "a PostgreSQL connection URL (postgres://…)")
    .optional(),
  /** When set, the pool named LOOM_POOL_NAME is created or given this token at start. */
  LOOM_POOL_TOKEN: z.string().min(16).optional(),
  LOOM_POOL_NAME: z.string().min(1).default("default"),
  LOOM_SYNC_INTERVAL_SECONDS: z.coerce.number().positive().default(15),
  LOOM_WORKER_TIMEOUT_SECONDS: z.coerce.number().positive().default(75),
  /** The worker agent's token (so it need not appear on a command line). */
  LOOM_WORKER_TOKEN: z.string().optional(),
  /** Set by `loom serve` for its local workers: the agent's instance id, recorded in the data folder (local-workers.ts). */
  LOOM_WORKER_INSTANCE_ID: z.string().min(8).max(100).optional(),
  LOOM_SERVER: z.string().url().optional(),
  /**
   * Where `next build` writes the web app (relative to the repository). Separate folders let
   * several checkouts' builds and end-to-end runs share a machine without overwriting each other.
   */
  LOOM_NEXT_DIST_DIR: z.string().min(1).default(".next"),
  /** Set by `loom serve` for the processes it starts: they stop when it is gone (parent-watch.ts). */
  LOOM_PARENT_PID: z.coerce.number().int().positive().optional(),

  /** Access (README "Users, roles and tokens"). */
  LOOM_PUBLIC_URL: z.string().url().optional(),
  /** Behind a reverse proxy you run: take the client's address from X-Forwarded-For's last hop. */
  LOOM_TRUST_PROXY: z
    .enum(["0", "1", "true", "false"])
    .default("0")
    .transform((v) => v === "1" || v === "true"),
  /** Comma-separated host names the server also answers to (loopback names and IP addresses always). */
  LOOM_ALLOWED_HOSTS: z.string().default(""),
  LOOM_SESSION_IDLE_MINUTES: z.coerce
    .number()
    .positive()
    .default(12 * 60),
  LOOM_SESSION_MAX_DAYS: z.coerce.number().positive().default(7),
  LOOM_ROTATION_GRACE_MINUTES: z.coerce.number().nonnegative().default(60),
  LOOM_MAX_STREAMS_PER_USER: z.coerce.number().int().positive().default(32),
  /** The first-start setup token (automated installs); random and printed when unset. */
  LOOM_SETUP_TOKEN: z.string().min(16).optional(),
  /** For `loom` verbs that call a server: the token to send (beats `loom login` and local-admin.token). */
  LOOM_TOKEN: z.string().min(1).optional(),
  /** For `loom` verbs: a token file to use when LOOM_TOKEN is unset (another data folder's local-admin.token). */
  LOOM_TOKEN_FILE: z.string().min(1).optional(),
  /** Where `loom login` keeps its tokens (default: $XDG_CONFIG_HOME/loom, else ~/.config/loom). */
  XDG_CONFIG_HOME: z.string().optional(),
  HOME: z.string().optional(),

  /** Quotas and retention. */
  LOOM_LOG_CAP_ACTION_MB: z.coerce.number().positive().default(64),
  LOOM_LOG_CAP_SESSION_MB: z.coerce.number().positive().default(256),
  LOOM_WORKER_RETENTION_HOURS: z.coerce
    .number()
    .positive()
    .default(7 * 24),
  LOOM_ASSIGNED_TIMEOUT_SECONDS: z.coerce
    .number()
    .positive()
    .default(10 * 60),
  LOOM_CHECK_TIMEOUT_SECONDS: z.coerce.number().positive().default(20),
  LOOM_JOB_RETENTION_DAYS: z.coerce.number().positive().default(30),
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

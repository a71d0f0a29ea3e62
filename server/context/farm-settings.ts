/** The farm's settings as the environment gives them (server/env.ts), for every process that opens a farm. */
import type { ServerEnv } from "../env";
import type { FarmSettings } from "./farm";

const MB = 1024 * 1024;

export function settingsFromEnv(env: ServerEnv, dataDir: string): Partial<FarmSettings> {
  return {
    syncIntervalSeconds: env.LOOM_SYNC_INTERVAL_SECONDS,
    workerTimeoutSeconds: env.LOOM_WORKER_TIMEOUT_SECONDS,
    sessionIdleMinutes: env.LOOM_SESSION_IDLE_MINUTES,
    sessionMaxDays: env.LOOM_SESSION_MAX_DAYS,
    allowedHosts: env.LOOM_ALLOWED_HOSTS.split(",")
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    publicUrl: env.LOOM_PUBLIC_URL ?? null,
    rotationGraceMinutes: env.LOOM_ROTATION_GRACE_MINUTES,
    maxStreamsPerUser: env.LOOM_MAX_STREAMS_PER_USER,
    logCapActionChars: Math.round(env.LOOM_LOG_CAP_ACTION_MB * MB),
    logCapSessionChars: Math.round(env.LOOM_LOG_CAP_SESSION_MB * MB),
    workerRetentionHours: env.LOOM_WORKER_RETENTION_HOURS,
    assignedTimeoutSeconds: env.LOOM_ASSIGNED_TIMEOUT_SECONDS,
    checkTimeoutSeconds: env.LOOM_CHECK_TIMEOUT_SECONDS,
    jobRetentionDays: env.LOOM_JOB_RETENTION_DAYS,
    dataDir,
    localPoolName: env.LOOM_POOL_NAME,
  };
}

/**
 * The environment a worker's tasks start from: the worker's own, minus every Loom credential
 * (issue 10: a task that ran `env` printed the pool token). The worker may hold its token in
 * LOOM_WORKER_TOKEN, and an operator's shell may carry the others; any value that looks like a
 * Loom secret (server/auth/secrets.ts prefixes them all with `loom_`) goes too, whatever its name.
 */

/** Variables that hold a Loom credential or say where one is (or, the instance id, let an agent take its name back). */
export const CREDENTIAL_VARIABLES: readonly string[] = ["LOOM_WORKER_TOKEN", "LOOM_TOKEN", "LOOM_POOL_TOKEN", "LOOM_SETUP_TOKEN", "LOOM_TOKEN_FILE", "LOOM_WORKER_INSTANCE_ID"];

const SECRET_PREFIX = "loom_";

export function isCredentialVariable(name: string, value: string): boolean {
  return CREDENTIAL_VARIABLES.includes(name) || value.trimStart().startsWith(SECRET_PREFIX);
}

export function taskEnvironment(environment: Readonly<Record<string, string>>): Record<string, string> {
  const scrubbed: Record<string, string> = {};
  for (const [name, value] of Object.entries(environment)) if (!isCredentialVariable(name, value)) scrubbed[name] = value;
  return scrubbed;
}

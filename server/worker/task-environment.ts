/**
 * The environment a worker's tasks start from: the worker's own, minus every Loom credential
 * (issue 10: a task that ran `env` printed the pool token). Three rules, so that a credential
 * nobody listed does not slip through: the named variables below; any LOOM_ variable whose name
 * says it holds a secret or where secrets are (…TOKEN, …SECRET, …PASSWORD, …KEY, a database
 * address, the data folder: an operator's shell or a test runner may carry ones not named here);
 * and any value that looks like a Loom secret (server/auth/secrets.ts prefixes them all with
 * `loom_`), whatever its name. With PostgreSQL behind the farm, the database's own client
 * variables (libpq's, which node-postgres reads too) and any PostgreSQL address carrying a
 * password go the same way, whatever variable holds them.
 */

/** Variables that hold a Loom credential or say where one is (or, the instance id, let an agent take its name back). */
export const CREDENTIAL_VARIABLES: readonly string[] = ["LOOM_WORKER_TOKEN", "LOOM_TOKEN", "LOOM_POOL_TOKEN", "LOOM_SETUP_TOKEN", "LOOM_TOKEN_FILE", "LOOM_WORKER_INSTANCE_ID"];

/** libpq's variables that hold a database password or say where one is. */
const DATABASE_CLIENT_VARIABLES: readonly string[] = ["PGPASSWORD", "PGPASSFILE", "PGSERVICEFILE"];

const SECRET_PREFIX = "loom_";
/** `postgres://user:password@…`: a database address with its password in it. */
const DATABASE_URL_WITH_PASSWORD = /^\s*postgres(?:ql)?:\/\/[^/@\s:]*:[^/@\s]+@/i;
const SECRET_NAME = /^LOOM_\w*(TOKEN|SECRET|PASSWORD|PASSWD|KEY|CREDENTIALS?|DATABASE_URL|DATA_DIR)$/;

export function isCredentialVariable(name: string, value: string): boolean {
  return (
    CREDENTIAL_VARIABLES.includes(name) || DATABASE_CLIENT_VARIABLES.includes(name) || SECRET_NAME.test(name) || value.trimStart().startsWith(SECRET_PREFIX) || DATABASE_URL_WITH_PASSWORD.test(value)
  );
}

export function taskEnvironment(environment: Readonly<Record<string, string>>): Record<string, string> {
  const scrubbed: Record<string, string> = {};
  for (const [name, value] of Object.entries(environment)) if (!isCredentialVariable(name, value)) scrubbed[name] = value;
  return scrubbed;
}

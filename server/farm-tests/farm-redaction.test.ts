/**
 * DESIGN "Quality bars": a redacted value never reaches the database, a log, or an API response.
 * An environment reads a secret at run time and declares it with openjd_redacted_env; every
 * later action prints it (in a log line, a status message and a fail message); after the job,
 * no stored text and no API answer contains it.
 *
 * The same sweep covers the access-control tables (issue 10): a person signs in over HTTP with a
 * password, makes a personal access token and submits with it, a worker enrolls; the audit log
 * and the sessions tables then hold rows for all of it, and none of them (nor any other table)
 * holds the redacted value, the password, the session cookie, the token or a worker credential.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createUser } from "../auth/accounts";
import { SYSTEM_ACTOR } from "../services/audit";
import { farmClient, FarmHarness, python, submitTemplate, waitFor, waitForJobEnd, waitForWorkers } from "./farm-harness";

const SECRET = "hunter2-correct-horse";
const PASSWORD = "a-long-password-nobody-guesses";

/** Signs in over HTTP as the portal does; returns the session cookie's value. */
async function signIn(url: string, name: string, password: string): Promise<string> {
  const response = await fetch(`${url}/api/trpc/auth.signIn`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url },
    body: JSON.stringify({ name, password }),
  });
  expect(response.status).toBe(200);
  const cookie = /loom_session=([^;]+)/.exec(response.headers.getSetCookie().join("\n"))?.[1];
  if (!cookie) throw new Error("no session cookie");
  return decodeURIComponent(cookie);
}

/** A personal access token made with the session cookie, as the account page makes one. */
async function makeToken(url: string, cookie: string): Promise<string> {
  const response = await fetch(`${url}/api/trpc/tokens.create`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: url, cookie: `loom_session=${encodeURIComponent(cookie)}` },
    body: JSON.stringify({ name: "redaction test", scope: "submit", expiresInDays: 1 }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { result: { data: { token: string } } }).result.data.token;
}

let h: FarmHarness;
beforeEach(() => {
  h = new FarmHarness();
});
afterEach(async () => {
  await h.dispose();
});

/** The secret comes from a file at run time (as from a vault): it is never part of the job. */
const job = {
  specificationVersion: "jobtemplate-2023-09",
  extensions: ["REDACTED_ENV_VARS"],
  name: "Secrets",
  parameterDefinitions: [{ name: "SecretFile", type: "STRING" }],
  jobEnvironments: [
    {
      name: "Vault",
      script: {
        actions: {
          onEnter: python(`import sys\nprint("openjd_redacted_env: TOKEN=" + open(sys.argv[1]).read().strip())`, "{{Param.SecretFile}}"),
          onExit: python(`import os\nprint("leaving with " + os.environ["TOKEN"])`),
        },
      },
    },
  ],
  steps: [
    {
      name: "Use",
      parameterSpace: { taskParameterDefinitions: [{ name: "N", type: "INT", range: "1-2" }] },
      script: {
        actions: {
          onRun: python(
            `import os, sys\nt = os.environ["TOKEN"]\nprint("using " + t + " now")\nprint("openjd_status: status with " + t)\nif sys.argv[1] == "2":\n    print("openjd_fail: failed with " + t)\n    sys.exit(3)`,
            "{{Task.Param.N}}",
          ),
        },
      },
    },
  ],
};

describe("redaction across the farm", () => {
  it("keeps a redacted value out of every stored row and every API answer", async () => {
    const farm = await h.startFarm();
    h.startWorker(farm.url, farm.token, "w1");
    await waitForWorkers(farm.api, 1);
    const secretFile = join(h.tempDir(), "secret");
    writeFileSync(secretFile, `${SECRET}\n`);
    await createUser(farm.farm, SYSTEM_ACTOR, { name: "ana", role: "artist", password: PASSWORD });
    const cookie = await signIn(farm.url, "ana", PASSWORD);
    const token = await makeToken(farm.url, cookie);
    const jobId = await submitTemplate(farmClient(farm.url, token), job, { SecretFile: secretFile });
    const ended = await waitForJobEnd(farm.api, jobId, 20_000);
    expect(ended.status).toBe("FAILED");

    // The Session ends after the tasks (its environment's exit runs last): wait for its last lines.
    const lines = await waitFor(async () => {
      const sessions = await farm.api.jobs.sessions.query({ jobId });
      const stored = await farm.api.logs.lines.query({ jobId, limit: 10_000 });
      return sessions.every((s) => s.state === "ENDED") && stored.some((l) => l.line === "leaving with ********") && stored;
    }, "the Session to end with its exit's log line stored");
    expect(lines.some((l) => l.line === "using ******** now")).toBe(true);

    // Nothing anywhere holds the value: every text column of every table, and the API answers.
    // One snapshot, through the store (the server in this process may have a unit open).
    const secrets = [SECRET, PASSWORD, cookie, token, farm.token, farm.adminToken];
    const credentialPattern = /loom_(ses|pat|enr|wkr|setup)_[A-Za-z0-9_-]{20,}/;
    const { counts, leaks } = await farm.store.read(
      async (tx) => {
        const count = async (sql: string) => (await tx.get<{ n: number }>(sql))!.n;
        // The access tables are not empty, so sweeping them means something.
        const counts: Record<string, number> = {
          auth_sessions: await count("SELECT COUNT(*) AS n FROM auth_sessions"),
          access_tokens: await count("SELECT COUNT(*) AS n FROM access_tokens"),
        };
        for (const action of ["auth.sign-in", "token.create", "job.submit", "worker.enroll"]) counts[action] = await count(`SELECT COUNT(*) AS n FROM audit_log WHERE action = '${action}'`);
        const tables = await tx.all<{ name: string }>(
          tx.engine === "sqlite"
            ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%'"
            : "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'",
        );
        const leaks: string[] = [];
        for (const { name } of tables) {
          for (const row of await tx.all(`SELECT * FROM "${name}"`)) {
            const text = JSON.stringify(row);
            if (secrets.some((secret) => text.includes(secret)) || credentialPattern.test(text)) leaks.push(`${name}: ${text.slice(0, 200)}`);
          }
        }
        return { counts, leaks };
      },
      { consistent: true },
    );
    for (const [what, n] of Object.entries(counts)) expect(n, what).toBeGreaterThan(0);
    expect(leaks).toEqual([]);
    const answers = JSON.stringify([await farm.api.jobs.get.query({ jobId }), await farm.api.jobs.sessions.query({ jobId }), await farm.api.jobs.tasks.query({ stepId: ended.steps[0]!.id }), lines]);
    for (const secret of secrets) expect(answers).not.toContain(secret);
    expect(answers).toContain("status with ********");
    expect(answers).toContain("failed with ********");
  });
});

/**
 * The worker's tasks start from its environment without a Loom credential (task-environment.ts):
 * the table of what goes, and a real action printing its whole environment through the
 * SessionExecutor, as a worker runs it.
 */
import { describe, expect, it } from "vitest";
import { TEST_PATH, tempRoot } from "../session/session-test-support";
import { LogShipper } from "./log-shipper";
import { SessionExecutor } from "./session-executor";
import { CREDENTIAL_VARIABLES, taskEnvironment } from "./task-environment";
import { assignment, definition, task, waitUntil } from "./worker-test-support";

const WORKER_ENVIRONMENT = {
  PATH: TEST_PATH,
  HOME: "/home/render",
  LOOM_SERVER: "http://farm:3000",
  LOOM_WORKER_TOKEN: "pool-token-without-a-prefix",
  LOOM_TOKEN: "loom_pat_personal",
  LOOM_POOL_TOKEN: "loom_enr_local-pool",
  LOOM_SETUP_TOKEN: "loom_setup_first-start",
  LOOM_TOKEN_FILE: "/srv/loom/data/local-admin.token",
  LOOM_WORKER_INSTANCE_ID: "3b1f0c9e-0d4e-4f7e-9a51-6f0a2f7d9c11",
  // Not named in CREDENTIAL_VARIABLES: their names say what they hold.
  LOOM_E2E_SETUP_TOKEN: "a-runner-token-without-a-prefix",
  LOOM_DATABASE_URL: "postgres://loom:hunter2@db.studio/loom",
  LOOM_DATA_DIR: "/srv/loom/data",
  LOOM_SESSION_SECRET: "cookie-signing-secret",
  SOMETHING_ELSE: "loom_wkr_a-worker-credential-under-any-name",
  PADDED: "  loom_ses_a-cookie-value",
  LOOMING: "loom is a word, not a secret",
  // PostgreSQL's client variables, and a database address with a password under any name.
  PGPASSWORD: "db-password",
  PGPASSFILE: "/srv/loom/.pgpass",
  RENDER_DB: "postgresql://render:s3cret@db.studio:5432/assets",
};

describe("taskEnvironment", () => {
  it("drops every Loom credential variable, any LOOM_ variable named for a secret, and any value that looks like a Loom secret; keeps the rest", () => {
    expect(taskEnvironment(WORKER_ENVIRONMENT)).toEqual({ PATH: TEST_PATH, HOME: "/home/render", LOOM_SERVER: "http://farm:3000", LOOMING: "loom is a word, not a secret" });
    expect(CREDENTIAL_VARIABLES).toEqual(["LOOM_WORKER_TOKEN", "LOOM_TOKEN", "LOOM_POOL_TOKEN", "LOOM_SETUP_TOKEN", "LOOM_TOKEN_FILE", "LOOM_WORKER_INSTANCE_ID"]);
  });

  it("a task printing its environment on a worker shows none of them", async () => {
    const logs = new LogShipper();
    const executor = new SessionExecutor({ logs, rootDirectory: tempRoot(), baseEnvironment: WORKER_ENVIRONMENT });
    const job = definition(
      "job-env",
      `
      specificationVersion: jobtemplate-2023-09
      name: Env
      steps:
      - name: Print
        script:
          actions:
            onRun: { command: env }
    `,
    );
    executor.assign(assignment("s1", job, [task("t1", "Print")], true));
    await waitUntil(() => executor.sessionIds.length === 0, "the Session to end");
    const printed = logs.takeBatch("s1", 10_000).map((l) => l.line);
    expect(printed).toContain(`PATH=${TEST_PATH}`);
    expect(printed).toContain("LOOMING=loom is a word, not a secret");
    for (const [name, value] of Object.entries(WORKER_ENVIRONMENT)) {
      if (name === "PATH" || name === "HOME" || name === "LOOM_SERVER" || name === "LOOMING") continue;
      expect(printed.filter((line) => line.startsWith(`${name}=`) || line.includes(value.trim()))).toEqual([]);
    }
  });
});

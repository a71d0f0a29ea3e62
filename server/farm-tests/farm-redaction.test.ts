/**
 * DESIGN "Quality bars": a redacted value never reaches the database, a log, or an API response.
 * An environment reads a secret at run time and declares it with openjd_redacted_env; every
 * later action prints it (in a log line, a status message and a fail message); after the job,
 * no stored text and no API answer contains it.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FarmHarness, python, submitTemplate, waitFor, waitForJobEnd, waitForWorkers } from "./farm-harness";

const SECRET = "hunter2-correct-horse";

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
    const jobId = await submitTemplate(farm.api, job, { SecretFile: secretFile });
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
    const sqlite = farm.store.sqlite;
    const tables = sqlite.prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%'").all();
    const leaks: string[] = [];
    for (const { name } of tables) {
      for (const row of sqlite.prepare(`SELECT * FROM "${name}"`).all() as Array<Record<string, unknown>>) {
        if (JSON.stringify(row).includes(SECRET)) leaks.push(`${name}: ${JSON.stringify(row).slice(0, 200)}`);
      }
    }
    expect(leaks).toEqual([]);
    const answers = JSON.stringify([
      await farm.api.jobs.get.query({ jobId }),
      await farm.api.jobs.sessions.query({ jobId }),
      await farm.api.jobs.tasks.query({ stepId: ended.steps[0]!.id }),
      lines,
    ]);
    expect(answers).not.toContain(SECRET);
    expect(answers).toContain("status with ********");
    expect(answers).toContain("failed with ********");
  });
});

/**
 * The attack of issue 10 on `loom serve` itself (its own local worker, started as it always
 * starts them: the pool's token file, the data folder hidden, the Session root inside it): a
 * submitted task runs `env`, reads the worker's token file, the local admin's token and the
 * farm's database, the worker's /proc environment, and lists /proc. None of it shows a
 * credential or a byte of those files, and the task's own Session files still work. The
 * shield's own tests (server/worker/task-shield*.test.ts) skip where user namespaces do not
 * work; so does this one.
 */
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { shieldProblem, skipNotice } from "../worker/shield-test-support";
import { FarmHarness, freePort, localAdminClient, shell, submitTemplate, waitFor, waitForJobEnd } from "./farm-harness";

const problem = await shieldProblem();
const notice = skipNotice(problem);

let h: FarmHarness;
beforeEach(() => {
  h = new FarmHarness();
});
afterEach(async () => {
  await h.dispose();
});

const ATTACK = [
  'echo "== env"; env',
  'echo "== token file"; cat "$1/local-pool.token"; echo',
  'echo "== admin token"; cat "$1/local-admin.token"; echo',
  'echo "== database"; cat "$1/loom.db" "$1/loom.db-wal" | head -c 200; echo',
  'echo "== worker environ"; tr "\\0" "\\n" < "/proc/$2/environ"',
  'echo "== proc"; ls /proc | grep "^[0-9]" | tr "\\n" " "; echo',
  'echo "== own files"; echo mine > own-file; cat own-file; ls',
  'echo "== done"',
].join("\n");

/** The pid of `loom serve`'s local worker (a child of serve; found by its command line). */
function localWorkerPid(dataDir: string): number | null {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      if (argv.includes("worker") && argv.includes(join(dataDir, "local-pool.token"))) return Number(entry);
    } catch {
      // gone
    }
  }
  return null;
}

describe.skipIf(problem !== null)(`the task shield on loom serve's own worker${notice}`, () => {
  it("a task finds no credential and no byte of the token files or the database; its own files work", async () => {
    const data = h.tempDir("loom-shield-serve-");
    const port = await freePort();
    const secrets = { LOOM_POOL_TOKEN: `loom_enr_${randomBytes(12).toString("hex")}`, LOOM_SETUP_TOKEN: `loom_setup_${randomBytes(12).toString("hex")}` };
    // On PostgreSQL the server's LOOM_DATABASE_URL is a credential too: never the worker's, never a task's.
    const database = await h.databaseEnv();
    const serve = h.spawnLoom("serve", ["serve", "--headless", "--port", String(port), "--data", data, "--workers", "1"], {
      ...database,
      ...secrets,
      LOOM_SYNC_INTERVAL_SECONDS: "0.25",
    });
    await waitFor(() => serve.output().includes("[local-1] registered with") || !serve.alive(), "the local worker to register", 30_000);
    expect(serve.alive(), serve.output()).toBe(true);
    const workerPid = localWorkerPid(data);
    expect(workerPid).not.toBeNull();

    const api = localAdminClient(`http://127.0.0.1:${port}`, data);
    const jobId = await submitTemplate(
      api,
      {
        specificationVersion: "jobtemplate-2023-09",
        name: "Attack",
        parameterDefinitions: [
          { name: "Data", type: "STRING" },
          { name: "Worker", type: "STRING" },
        ],
        steps: [{ name: "Try", script: { actions: { onRun: shell(ATTACK, "{{Param.Data}}", "{{Param.Worker}}") } } }],
      },
      { Data: data, Worker: String(workerPid) },
    );
    expect((await waitForJobEnd(api, jobId, 30_000)).status).toBe("SUCCEEDED");
    const text = await waitFor(async () => {
      const lines = (await api.logs.lines.query({ jobId, limit: 10_000 })).map((l) => l.line);
      return lines.includes("== done") && lines;
    }, "the task's last line to be stored");
    const section = (name: string) =>
      text.slice(
        text.indexOf(`== ${name}`) + 1,
        text.findIndex((l, i) => i > text.indexOf(`== ${name}`) && l.startsWith("== ")),
      );

    // The attack ran: an environment was printed, and the files it read are there to be read from outside.
    expect(section("env").some((l) => l.startsWith("PATH="))).toBe(true);
    const fileSecrets = [readFileSync(join(data, "local-pool.token"), "utf8").trim(), readFileSync(join(data, "local-admin.token"), "utf8").trim()];
    expect(fileSecrets[0]).toBe(secrets.LOOM_POOL_TOKEN);
    const leaks = text.filter(
      (l) => [...fileSecrets, ...Object.values(secrets), ...Object.values(database)].some((s) => l.includes(s)) || /loom_(wkr|pat|ses|enr|setup)_/.test(l) || l.includes("SQLite format 3"),
    );
    expect(leaks).toEqual([]);
    // The data folder is out of sight: only "No such file" where its files are.
    for (const name of ["token file", "admin token", "database"]) {
      expect(section(name).filter((l) => l !== "" && !/No such file or directory$/.test(l))).toEqual([]);
    }
    expect(section("worker environ")).toEqual([expect.stringMatching(/No such file/)]);
    const pids = section("proc").join(" ").trim().split(" ").map(Number);
    expect(pids.length).toBeGreaterThan(0);
    expect(pids).not.toContain(workerPid);
    expect(section("own files")).toEqual(expect.arrayContaining(["mine", "own-file"]));
  }, 90_000);
});

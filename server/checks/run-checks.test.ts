/**
 * The services that check templates, through their real check threads: past the farm's budget a
 * save, a preview and a submission each end with the clear located error and change nothing; a
 * good submission is written whole.
 */
import { describe, expect, it } from "vitest";
import { appRouter } from "../router/index";
import { createCallerFactory } from "../router/trpc";
import { contextAs } from "../auth/test-principals";
import { testFarm } from "../services/farm-test-support";
import { sqliteOf } from "../store/store-test-support";
import { makeZip } from "../services/zip-test-support";
import { productTemplate, slowTemplate, slowParameterValues } from "./check-test-support";

const TIMED_OUT = /^checking this template took longer than 1 s, this farm's limit; simplify its expressions/;

async function setup(checkTimeoutSeconds = 1) {
  const t = await testFarm({ checkTimeoutSeconds });
  const api = createCallerFactory(appRouter)(await contextAs(t.farm, "artist"));
  const count = (table: string) => (sqliteOf(t.farm.store).prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  return { t, api, count };
}

describe("checks past the farm's budget", () => {
  it("a preview ends with the located error", async () => {
    const { api } = await setup();
    const preview = await api.jobs.preview({ template: { text: slowTemplate(), format: "yaml" } });
    expect(preview).toEqual({ ok: false, errors: [{ path: "", line: 1, column: 1, origin: "template", message: expect.stringMatching(TIMED_OUT) }] });
  });

  it("a submission ends with the located error and writes nothing", async () => {
    const { api, count } = await setup();
    const submitted = await api.jobs.submit({ template: { text: slowTemplate(), format: "yaml" } });
    expect(submitted).toMatchObject({ ok: false, errors: [{ path: "", line: 1, message: expect.stringMatching(TIMED_OUT) }] });
    expect([count("jobs"), count("steps"), count("tasks"), count("server_state")]).toEqual([0, 0, 0, 0]);
  });

  it("saving it to the library is refused with that error", async () => {
    const { api, count } = await setup();
    await expect(api.templates.save({ name: "slow", text: slowTemplate(), format: "yaml" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/took longer than 1 s/) });
    expect(count("templates")).toBe(0);
  });

  it("importing a bundle whose parameter values are slow to read is refused with that error, on a check thread", async () => {
    const { api, count } = await setup(0.2);
    const zip = makeZip([
      { name: "template.yaml", data: productTemplate(2, 2) },
      { name: "parameter_values.json", data: slowParameterValues() },
    ]);
    await expect(api.templates.importBundle({ fileName: "slow.zip", base64: zip.toString("base64") })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: expect.stringMatching(/^slow\.zip \(1:1\): reading this bundle took longer than 0\.2 s, this farm's limit/),
    });
    expect(count("templates")).toBe(0);
  });

  it("a good submission afterwards is checked and written whole", async () => {
    const { t, api } = await setup();
    await api.jobs.preview({ template: { text: slowTemplate(), format: "yaml" } });
    const submitted = await api.jobs.submit({ template: { text: productTemplate(30, 20), format: "yaml" } });
    if (!submitted.ok) throw new Error(JSON.stringify(submitted.errors));
    const job = await api.jobs.get({ jobId: submitted.jobId });
    expect(job).toMatchObject({ status: "READY", taskCount: 600, counts: { READY: 600 }, steps: [{ name: "Render", taskCount: 600, counts: { READY: 600 } }] });
    const audit = sqliteOf(t.farm.store).prepare("SELECT action, after FROM audit_log WHERE action = 'job.submit'").all() as Array<{ after: string }>;
    expect(audit.map((row) => JSON.parse(row.after))).toEqual([{ name: "product", tasks: 600, priority: 50, initialState: "READY" }]);
  });
});

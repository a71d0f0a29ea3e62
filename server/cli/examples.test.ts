/** The README's examples stay valid: every template in examples/ checks clean and creates a job with its defaults. */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { checkTemplateText, createJob } from "../../lib/openjd";

const dir = join(import.meta.dirname, "..", "..", "examples");
const files = readdirSync(dir).filter((f) => /\.(ya?ml|json)$/.test(f));

describe("examples/", () => {
  it("has examples", () => expect(files.length).toBeGreaterThan(0));

  it.each(files)("%s is a valid job template that creates a job", (file) => {
    const checked = checkTemplateText(readFileSync(join(dir, file), "utf8"), file.endsWith(".json") ? "json" : "yaml", "job");
    expect(checked.errors).toEqual([]);
    if (checked.template?.kind !== "job") throw new Error("not a job template");
    const created = createJob({ template: checked.template.template, parameterValues: {}, templateDir: dir, workingDir: dir });
    expect(created.ok).toBe(true);
  });
});

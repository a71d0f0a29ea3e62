import { describe, expect, it } from "vitest";
import { hostFacts, standardCapabilities, workerCapabilities, type HostFacts } from "./capabilities";

const LINUX: HostFacts = { vcpus: 8, memoryBytes: 16 * 1024 ** 3 + 123, platform: "linux", arch: "x64" };

describe("standardCapabilities", () => {
  it.each([
    [LINUX, { "attr.worker.os.family": ["linux"], "attr.worker.cpu.arch": ["x86_64"] }],
    [
      { ...LINUX, platform: "darwin", arch: "arm64" },
      { "attr.worker.os.family": ["macos"], "attr.worker.cpu.arch": ["arm64"] },
    ],
    [
      { ...LINUX, platform: "win32" },
      { "attr.worker.os.family": ["windows"], "attr.worker.cpu.arch": ["x86_64"] },
    ],
    [{ ...LINUX, platform: "freebsd", arch: "riscv64" }, {}],
  ])("maps %o to OpenJD's standard values", (host, attributes) => {
    expect(standardCapabilities(host).attributes).toEqual(attributes);
  });

  it("counts vCPUs and memory in MiB", () => {
    expect(standardCapabilities(LINUX).amounts).toEqual({ "amount.worker.vcpu": 8, "amount.worker.memory": 16_384 });
  });

  it("detects this host", () => {
    const detected = standardCapabilities(hostFacts());
    expect(detected.amounts["amount.worker.vcpu"]).toBeGreaterThanOrEqual(1);
    expect(detected.amounts["amount.worker.memory"]).toBeGreaterThan(0);
  });
});

describe("workerCapabilities", () => {
  it("adds custom attributes and amounts, several values per name, and overrides what was detected", () => {
    const result = workerCapabilities(
      {
        attrs: ["attr.render.software=maya", "attr.render.software=nuke,houdini", "acme:attr.site=paris"],
        amounts: ["amount.worker.vcpu=4", "amount.license.nuke=2.5", "AMOUNT.WORKER.GPU=1"],
      },
      LINUX,
    );
    expect(result).toEqual({
      ok: true,
      capabilities: {
        amounts: { "amount.worker.vcpu": 4, "amount.worker.memory": 16_384, "amount.license.nuke": 2.5, "amount.worker.gpu": 1 },
        attributes: {
          "attr.worker.os.family": ["linux"],
          "attr.worker.cpu.arch": ["x86_64"],
          "attr.render.software": ["maya", "nuke", "houdini"],
          "acme:attr.site": ["paris"],
        },
      },
    });
  });

  it("replaces a detected attribute with the values given", () => {
    const result = workerCapabilities({ attrs: ["attr.worker.os.family=Windows", "attr.Render.x=a", "attr.render.X=A"], amounts: [] }, LINUX);
    expect(result.ok && result.capabilities.attributes).toMatchObject({ "attr.worker.os.family": ["windows"], "attr.Render.x": ["a"] });
  });

  it.each([
    ["--attr", "attr.render.software", "expected NAME=VALUE"],
    ["--attr", "=maya", "expected NAME=VALUE"],
    ["--attr", "amount.x=1", "attribute names start with 'attr.', not 'amount.'"],
    ["--attr", "attr.worker.gpu=yes", "only OpenJD standard capabilities may start with 'attr.worker'"],
    ["--attr", "attr.worker.os.family=beos", "'beos' is not a valid value for attr.worker.os.family"],
    ["--attr", "attr.tag=has space", "is not a valid attribute value"],
    ["--attr", "attr.tag=a,,b", "attribute value must not be empty"],
    ["--amount", "amount.cores=lots", "'lots' is not a non-negative number"],
    ["--amount", "amount.cores=-1", "'-1' is not a non-negative number"],
    ["--amount", "amount.worker.vcpu=0", "amount.worker.vcpu must be at least 1 vCPU"],
    ["--amount", "attr.cores=1", "amount names start with 'amount.', not 'attr.'"],
    ["--amount", "amount.9lives=1", "is not a valid amount capability name"],
  ])("refuses %s %s: %s", (flag, value, message) => {
    const result = workerCapabilities(flag === "--attr" ? { attrs: [value], amounts: [] } : { attrs: [], amounts: [value] }, LINUX);
    expect(result.ok).toBe(false);
    expect(result.ok ? [] : result.errors).toEqual([expect.stringContaining(`${flag} ${value}: `)]);
    expect(result.ok ? "" : result.errors[0]).toContain(message);
  });

  it("reports every bad flag at once", () => {
    const result = workerCapabilities({ attrs: ["x", "attr.ok=yes", "y"], amounts: ["z"] }, LINUX);
    expect(result.ok ? [] : result.errors).toHaveLength(3);
  });
});

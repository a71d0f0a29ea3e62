import { describe, expect, it } from "vitest";
import {
  checkAttributeValue,
  checkCapabilityName,
  matchAmountRange,
  matchHostRequirements,
  RESERVED_SCOPES,
  STANDARD_AMOUNTS,
  STANDARD_ATTRIBUTES,
  type AmountRequirement,
  type CapabilityKind,
  type HostRequirements,
  type WorkerCapabilities,
} from "./capabilities";

describe("standard vocabularies", () => {
  it("lists the spec's standard names, all in reserved scopes and valid for their kind", () => {
    expect(Object.keys(STANDARD_AMOUNTS)).toEqual(["amount.worker.vcpu", "amount.worker.memory", "amount.worker.gpu", "amount.worker.gpu.memory", "amount.worker.disk.scratch"]);
    expect(STANDARD_AMOUNTS["amount.worker.vcpu"]?.min).toBe(1);
    expect(STANDARD_AMOUNTS["amount.worker.memory"]?.unit).toBe("MiB");
    expect(STANDARD_AMOUNTS["amount.worker.disk.scratch"]?.unit).toBe("GiB");
    expect(STANDARD_ATTRIBUTES["attr.worker.os.family"]?.values).toEqual(["linux", "windows", "macos"]);
    expect(STANDARD_ATTRIBUTES["attr.worker.cpu.arch"]?.values).toEqual(["x86_64", "arm64"]);
    expect(RESERVED_SCOPES).toEqual(["worker", "job", "step", "task"]);
    for (const name of Object.keys(STANDARD_AMOUNTS)) expect(checkCapabilityName(name, "amount")).toBeNull();
    for (const name of Object.keys(STANDARD_ATTRIBUTES)) expect(checkCapabilityName(name, "attr")).toBeNull();
  });
});

describe("checkCapabilityName", () => {
  const valid: [string, CapabilityKind][] = [
    ["amount.worker.vcpu", "amount"],
    ["AMOUNT.Worker.VCPU", "amount"],
    ["amount.custom.licenses", "amount"],
    ["amount.licenses", "amount"],
    ["acme:amount.license.nuke", "amount"],
    ["_v:amount._x.y_2", "amount"],
    ["attr.worker.os.family", "attr"],
    ["Attr.Worker.CPU.Arch", "attr"],
    ["attr.custom.host_config", "attr"],
    ["acme:attr.gpu_model", "attr"],
    ["attr.jobs.x", "attr"], // only the exact scope word is reserved
    ["amount." + "a".repeat(93), "amount"], // exactly 100 characters
  ];
  it.each(valid)("accepts %s as %s", (name, kind) => {
    expect(checkCapabilityName(name, kind)).toBeNull();
  });

  const invalid: [string, CapabilityKind, string][] = [
    ["", "amount", "must not be empty"],
    ["amount." + "a".repeat(94), "amount", "at most 100 characters, got 101"],
    ["attr." + "a".repeat(96), "attr", "at most 100 characters, got 101"],
    ["amount.worker.os.family", "attr", "attribute names start with 'attr.', not 'amount.'"],
    ["attr.custom.x", "amount", "amount names start with 'amount.', not 'attr.'"],
    ["acme:amount.x", "attr", "attribute names start with 'attr.'"],
    ["vcpu", "amount", "must start with 'amount.'"],
    ["worker.vcpu", "amount", "must start with 'amount.'"],
    ["os.family", "attr", "must start with 'attr.'"],
    ["amounts.x", "amount", "must start with 'amount.'"],
    ["amount", "amount", "not a valid amount capability name"],
    ["amount.", "amount", "not a valid amount capability name"],
    ["amount.a..b", "amount", "not a valid amount capability name"],
    ["amount.a.", "amount", "not a valid amount capability name"],
    ["amount.1x", "amount", "not a valid amount capability name"],
    ["amount.a-b", "amount", "not a valid amount capability name"],
    ["amount.a b", "amount", "not a valid amount capability name"],
    ["attr.é", "attr", "not a valid attribute capability name"],
    ["a:b:amount.x", "amount", "must start with 'amount.'"],
    ["1acme:amount.x", "amount", "invalid vendor prefix '1acme'"],
    [":amount.x", "amount", "invalid vendor prefix ''"],
    ["amount.worker.custom", "amount", "only OpenJD standard capabilities may start with 'amount.worker'"],
    ["amount.worker", "amount", "only OpenJD standard capabilities may start with 'amount.worker'"],
    ["amount.job.x", "amount", "may start with 'amount.job'"],
    ["amount.Step.x", "amount", "may start with 'amount.step'"],
    ["amount.task.x", "amount", "may start with 'amount.task'"],
    ["attr.job.custom", "attr", "may start with 'attr.job'"],
    ["attr.worker.vcpu", "attr", "may start with 'attr.worker'"],
    ["amount.worker.os.family", "amount", "may start with 'amount.worker'"],
    ["acme:amount.worker.vcpu", "amount", "may start with 'amount.worker'"],
  ];
  it.each(invalid)("rejects %s as %s: %s", (name, kind, message) => {
    expect(checkCapabilityName(name, kind)).toContain(message);
  });

  it("names the standard capabilities when a reserved scope is misused", () => {
    expect(checkCapabilityName("attr.worker.gpu", "attr")).toBe("only OpenJD standard capabilities may start with 'attr.worker' (attr.worker.os.family, attr.worker.cpu.arch): attr.worker.gpu");
  });
});

describe("checkAttributeValue", () => {
  const valid: [string, string][] = [
    ["attr.custom.x", "a"],
    ["attr.custom.x", "_"],
    ["attr.custom.x", "nvidia-a100_80GB"],
    ["attr.custom.x", "x".repeat(100)],
    ["attr.worker.os.family", "linux"],
    ["attr.worker.os.family", "Windows"],
    ["ATTR.WORKER.OS.FAMILY", "MACOS"],
    ["attr.worker.cpu.arch", "x86_64"],
    ["attr.worker.cpu.arch", "ARM64"],
  ];
  it.each(valid)("accepts %s = %s", (name, value) => {
    expect(checkAttributeValue(name, value)).toBeNull();
  });

  const invalid: [string, string, string][] = [
    ["attr.custom.x", "", "must not be empty"],
    ["attr.custom.x", "x".repeat(101), "at most 100 characters, got 101"],
    ["attr.custom.x", "a b", "not a valid attribute value"],
    ["attr.custom.x", "1abc", "not a valid attribute value"],
    ["attr.custom.x", "-abc", "not a valid attribute value"],
    ["attr.custom.x", "a.b", "not a valid attribute value"],
    ["attr.custom.x", "café", "not a valid attribute value"],
    ["attr.worker.os.family", "beos", "use one of linux, windows, macos"],
    ["attr.worker.cpu.arch", "amd64", "use one of x86_64, arm64"],
    ["Attr.Worker.Cpu.Arch", "i386", "not a valid value for attr.worker.cpu.arch"],
  ];
  it.each(invalid)("rejects %s = %s: %s", (name, value, message) => {
    expect(checkAttributeValue(name, value)).toContain(message);
  });
});

describe("matchHostRequirements", () => {
  const linux8: WorkerCapabilities = {
    amounts: { "amount.worker.vcpu": 8, "amount.worker.memory": 16384, "amount.worker.gpu": 0 },
    attributes: { "attr.worker.os.family": ["linux"], "attr.worker.cpu.arch": ["x86_64"] },
  };
  const shouty: WorkerCapabilities = {
    amounts: { "AMOUNT.Worker.VCPU": 4, "Amount.Custom.Licenses": 2 },
    attributes: { "ATTR.WORKER.OS.FAMILY": ["Linux"], "attr.custom.mounts": ["NFS", "smb", "nfs"] },
  };
  const none: WorkerCapabilities = { amounts: {}, attributes: {} };
  const req = (amounts: HostRequirements["amounts"], attributes: HostRequirements["attributes"] = []) => ({
    amounts,
    attributes,
  });

  const cases: [string, HostRequirements | null, WorkerCapabilities, string[]][] = [
    ["no requirements", null, none, []],
    ["empty lists", req([], []), none, []],
    ["min met exactly", req([{ name: "amount.worker.vcpu", min: 8 }]), linux8, []],
    ["max met exactly", req([{ name: "amount.worker.vcpu", max: 8 }]), linux8, []],
    ["min and max around value", req([{ name: "amount.worker.vcpu", min: 2, max: 16 }]), linux8, []],
    ["fractional min", req([{ name: "amount.worker.vcpu", min: 7.5 }]), linux8, []],
    ["min not met", req([{ name: "amount.worker.vcpu", min: 16 }]), linux8, ["needs amount.worker.vcpu >= 16, worker has 8"]],
    ["max exceeded", req([{ name: "amount.worker.vcpu", max: 4 }]), linux8, ["needs amount.worker.vcpu <= 4, worker has 8"]],
    ["in a range it misses", req([{ name: "amount.worker.vcpu", min: 16, max: 32 }]), linux8, ["needs amount.worker.vcpu >= 16, worker has 8"]],
    ["advertised zero", req([{ name: "amount.worker.gpu", min: 1 }]), linux8, ["needs amount.worker.gpu >= 1, worker has 0"]],
    ["missing amount counts as 0", req([{ name: "amount.custom.licenses", min: 1 }]), linux8, ["needs amount.custom.licenses >= 1, worker has none"]],
    ["missing amount satisfies min 0", req([{ name: "amount.custom.licenses", min: 0 }]), linux8, []],
    ["missing amount satisfies a max", req([{ name: "amount.worker.gpu.memory", max: 1024 }]), none, []],
    [
      "names compare case-insensitively",
      req([
        { name: "amount.worker.VCPU", min: 4 },
        { name: "amount.custom.licenses", min: 2 },
      ]),
      shouty,
      [],
    ],
    ["reason keeps the requirement's spelling", req([{ name: "Amount.Worker.Vcpu", min: 5 }]), shouty, ["needs Amount.Worker.Vcpu >= 5, worker has 4"]],
    ["anyOf met", req([], [{ name: "attr.worker.os.family", anyOf: ["windows", "linux"] }]), linux8, []],
    ["anyOf not met", req([], [{ name: "attr.worker.os.family", anyOf: ["windows"] }]), linux8, ["needs attr.worker.os.family any of [windows], worker has [linux]"]],
    ["allOf met, values case-insensitive", req([], [{ name: "attr.custom.MOUNTS", allOf: ["nfs", "SMB"] }]), shouty, []],
    ["allOf partly met", req([], [{ name: "attr.custom.mounts", allOf: ["nfs", "cifs"] }]), shouty, ["needs attr.custom.mounts all of [nfs, cifs], worker has [NFS, smb]"]],
    ["anyOf and allOf both needed", req([], [{ name: "attr.custom.mounts", anyOf: ["smb"], allOf: ["nfs"] }]), shouty, []],
    ["anyOf and allOf both unmet", req([], [{ name: "attr.custom.mounts", anyOf: ["a"], allOf: ["b"] }]), shouty, ["needs attr.custom.mounts any of [a] and all of [b], worker has [NFS, smb]"]],
    ["missing attribute is the empty set", req([], [{ name: "attr.custom.host_config", anyOf: ["big"] }]), linux8, ["needs attr.custom.host_config any of [big], worker has none"]],
    ["advertised empty set", req([], [{ name: "attr.custom.x", allOf: ["a"] }]), { amounts: {}, attributes: { "attr.custom.x": [] } }, ["needs attr.custom.x all of [a], worker has none"]],
    [
      "one reason per unmet requirement, amounts first",
      req(
        [
          { name: "amount.worker.vcpu", min: 16 },
          { name: "amount.worker.memory", min: 1024 },
          { name: "amount.worker.gpu", min: 1 },
        ],
        [
          { name: "attr.worker.os.family", anyOf: ["windows"] },
          { name: "attr.worker.cpu.arch", allOf: ["x86_64"] },
        ],
      ),
      linux8,
      ["needs amount.worker.vcpu >= 16, worker has 8", "needs amount.worker.gpu >= 1, worker has 0", "needs attr.worker.os.family any of [windows], worker has [linux]"],
    ],
  ];
  it.each(cases)("%s", (_label, requirements, capabilities, reasons) => {
    const result = matchHostRequirements(requirements, capabilities);
    expect(result).toEqual(reasons.length === 0 ? { ok: true } : { ok: false, reasons });
  });

  it("trusts the smaller value when a worker reports one amount under two spellings", () => {
    const twice: WorkerCapabilities = { amounts: { "amount.worker.vcpu": 16, "AMOUNT.WORKER.VCPU": 4 }, attributes: {} };
    expect(matchHostRequirements(req([{ name: "amount.worker.vcpu", min: 8 }]), twice)).toEqual({
      ok: false,
      reasons: ["needs amount.worker.vcpu >= 8, worker has 4"],
    });
  });

  it("merges attribute values reported under two spellings", () => {
    const twice: WorkerCapabilities = { amounts: {}, attributes: { "attr.custom.x": ["a"], "ATTR.CUSTOM.X": ["b"] } };
    expect(matchHostRequirements(req([], [{ name: "attr.custom.x", allOf: ["a", "b"] }]), twice)).toEqual({ ok: true });
  });
});

describe("matchAmountRange", () => {
  const cases: [AmountRequirement, { min: number; max: number }, boolean][] = [
    [{ name: "amount.worker.vcpu" }, { min: 0, max: 0 }, true],
    [{ name: "amount.worker.vcpu", min: 4, max: 8 }, { min: 4, max: 8 }, true],
    [{ name: "amount.worker.vcpu", min: 4 }, { min: 1, max: 4 }, true],
    [{ name: "amount.worker.vcpu", min: 4 }, { min: 1, max: 3 }, false],
    [{ name: "amount.worker.vcpu", max: 8 }, { min: 8, max: 64 }, true],
    [{ name: "amount.worker.vcpu", max: 8 }, { min: 9, max: 64 }, false],
    [{ name: "amount.worker.vcpu", min: 4, max: 8 }, { min: 2, max: 16 }, true],
    [{ name: "amount.worker.vcpu", min: 4, max: 8 }, { min: 6, max: 6 }, true],
    [{ name: "amount.worker.vcpu", min: 4, max: 8 }, { min: 10, max: 16 }, false],
    [{ name: "amount.worker.vcpu", min: 4, max: 8 }, { min: 1, max: 2 }, false],
    [{ name: "amount.worker.vcpu", min: 4 }, { min: 0, max: Infinity }, true],
    [{ name: "amount.worker.memory", min: 0 }, { min: 0, max: 0 }, true],
  ];
  it.each(cases)("%j against %j is %s", (requirement, range, expected) => {
    expect(matchAmountRange(requirement, range)).toBe(expected);
  });
});

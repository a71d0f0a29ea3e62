import { describe, expect, it } from "vitest";
import type { WorkerCapabilities } from "@/lib/openjd";
import { formatMemory, summarizeCapabilities, type CapabilityEntry } from "./capabilities";

describe("summarizeCapabilities", () => {
  it.each<{ name: string; caps: WorkerCapabilities; short: string[]; more: CapabilityEntry[] }>([
    { name: "nothing reported", caps: { amounts: {}, attributes: {} }, short: [], more: [] },
    {
      name: "the standard four, in a fixed order",
      caps: { amounts: { "amount.worker.memory": 32768, "amount.worker.vcpu": 16 }, attributes: { "attr.worker.cpu.arch": ["x86_64"], "attr.worker.os.family": ["linux"] } },
      short: ["16 vCPU", "32 GiB", "linux", "x86_64"],
      more: [],
    },
    {
      name: "GPUs and custom capabilities go to the list, amounts first, by name",
      caps: {
        amounts: { "amount.worker.vcpu": 4, "amount.worker.gpu.memory": 24576, "amount.worker.gpu": 2, "amount.licence.nuke": 3 },
        attributes: { "attr.studio.site": ["paris", "lyon"], "attr.worker.os.family": ["windows"] },
      },
      short: ["4 vCPU", "windows"],
      more: [
        { name: "amount.licence.nuke", value: "3" },
        { name: "amount.worker.gpu", value: "2" },
        { name: "amount.worker.gpu.memory", value: "24 GiB" },
        { name: "attr.studio.site", value: "paris, lyon" },
      ],
    },
  ])("$name", ({ caps, short, more }) => {
    expect(summarizeCapabilities(caps)).toEqual({ short, more });
  });
});

describe("formatMemory", () => {
  it.each([
    [512, "512 MiB"],
    [1024, "1 GiB"],
    [32045, "31.3 GiB"],
  ])("%i MiB → %s", (mib, text) => expect(formatMemory(mib)).toBe(text));
});

/**
 * A worker's capabilities for a table cell: the four standard ones as a short line (`8 vCPU ·
 * 31.3 GiB · linux · x86_64`), everything else (GPUs, custom amounts and attributes) as a list
 * shown on demand.
 */
import type { WorkerCapabilities } from "@/lib/openjd";

const VCPU = "amount.worker.vcpu";
const MEMORY = "amount.worker.memory";
const OS = "attr.worker.os.family";
const ARCH = "attr.worker.cpu.arch";

export interface CapabilityEntry {
  name: string;
  value: string;
}

export interface CapabilitySummary {
  /** vCPUs, memory, OS, architecture (those the worker has), in that order. */
  short: string[];
  /** The other amounts then attributes, by name. */
  more: CapabilityEntry[];
}

/** Memory amounts are MiB (OpenJD); GiB reads better past 1 GiB. */
export function formatMemory(mib: number): string {
  if (mib < 1024) return `${mib} MiB`;
  const gib = mib / 1024;
  return `${Number.isInteger(gib) ? gib : gib.toFixed(1)} GiB`;
}

export function summarizeCapabilities(capabilities: WorkerCapabilities): CapabilitySummary {
  const amounts = capabilities.amounts ?? {};
  const attributes = capabilities.attributes ?? {};
  const short: string[] = [];
  const vcpu = amounts[VCPU];
  const memory = amounts[MEMORY];
  if (vcpu !== undefined) short.push(`${vcpu} vCPU`);
  if (memory !== undefined) short.push(formatMemory(memory));
  for (const name of [OS, ARCH]) {
    const values = attributes[name];
    if (values && values.length > 0) short.push(values.join(", "));
  }
  const byName = (a: CapabilityEntry, b: CapabilityEntry) => a.name.localeCompare(b.name);
  const more = [
    ...Object.entries(amounts)
      .filter(([name]) => name !== VCPU && name !== MEMORY)
      .map(([name, value]) => ({ name, value: name.endsWith(".memory") ? formatMemory(value) : String(value) }))
      .sort(byName),
    ...Object.entries(attributes)
      .filter(([name]) => name !== OS && name !== ARCH)
      .map(([name, values]) => ({ name, value: values.join(", ") }))
      .sort(byName),
  ];
  return { short, more };
}

/**
 * What a worker tells the server it can do (spec 2023-09 §3.3): the standard capabilities
 * detected from the host, merged with `--attr K=V` and `--amount K=N` from the command line.
 * A name given on the command line replaces the detected value (so `--amount
 * amount.worker.vcpu=4` keeps a worker to four cores); repeated `--attr` flags for one name, or
 * comma-separated values, add values to it.
 */
import { availableParallelism, totalmem } from "node:os";
import { checkAttributeValue, checkCapabilityName, STANDARD_AMOUNTS, STANDARD_ATTRIBUTES, type WorkerCapabilities } from "../../lib/openjd";

export interface HostFacts {
  vcpus: number;
  memoryBytes: number;
  /** `process.platform`. */
  platform: string;
  /** `process.arch`. */
  arch: string;
}

export function hostFacts(): HostFacts {
  return { vcpus: availableParallelism(), memoryBytes: totalmem(), platform: process.platform, arch: process.arch };
}

const OS_FAMILY: Readonly<Record<string, string>> = { linux: "linux", win32: "windows", darwin: "macos" };
const CPU_ARCH: Readonly<Record<string, string>> = { x64: "x86_64", arm64: "arm64" };
const MIB = 1024 * 1024;

/** The OpenJD standard capabilities of a host; a platform or architecture OpenJD has no value for is left out. */
export function standardCapabilities(host: HostFacts): { amounts: Record<string, number>; attributes: Record<string, string[]> } {
  const attributes: Record<string, string[]> = {};
  const family = OS_FAMILY[host.platform];
  const arch = CPU_ARCH[host.arch];
  if (family) attributes["attr.worker.os.family"] = [family];
  if (arch) attributes["attr.worker.cpu.arch"] = [arch];
  return {
    amounts: { "amount.worker.vcpu": Math.max(1, host.vcpus), "amount.worker.memory": Math.floor(host.memoryBytes / MIB) },
    attributes,
  };
}

export type CapabilitiesResult = { ok: true; capabilities: WorkerCapabilities } | { ok: false; errors: string[] };

/** Protocol limit (lib/farm/protocol.ts): values per attribute. */
const MAX_ATTRIBUTE_VALUES = 100;

/**
 * The detected capabilities with the command-line flags applied; every bad flag is reported,
 * as `--attr attr.x=…: message`. Names are matched without regard to case (as OpenJD does),
 * keeping the first spelling; standard names are stored lower-case.
 */
export function workerCapabilities(flags: { attrs: readonly string[]; amounts: readonly string[] }, host: HostFacts): CapabilitiesResult {
  const errors: string[] = [];
  const detected = standardCapabilities(host);
  const amounts = new Map(Object.entries(detected.amounts).map(([k, v]) => [k, { name: k, value: v }]));
  for (const flag of flags.amounts) {
    const parsed = parseAmount(flag);
    if (typeof parsed === "string") errors.push(`--amount ${flag}: ${parsed}`);
    else amounts.set(parsed.name.toLowerCase(), parsed);
  }
  const attributes = new Map(Object.entries(detected.attributes).map(([k, v]) => [k, { name: k, values: v }]));
  const given = new Set<string>();
  for (const flag of flags.attrs) {
    const parsed = parseAttribute(flag);
    if (typeof parsed === "string") {
      errors.push(`--attr ${flag}: ${parsed}`);
      continue;
    }
    const key = parsed.name.toLowerCase();
    // The first flag for a name replaces what was detected; later ones add values.
    const current = given.has(key) ? attributes.get(key) : undefined;
    given.add(key);
    const values = [...(current?.values ?? [])];
    for (const value of parsed.values) if (!values.some((v) => v.toLowerCase() === value.toLowerCase())) values.push(value);
    if (values.length > MAX_ATTRIBUTE_VALUES) errors.push(`--attr ${flag}: at most ${MAX_ATTRIBUTE_VALUES} values are allowed for ${parsed.name}`);
    attributes.set(key, { name: current?.name ?? parsed.name, values });
  }
  if (errors.length > 0) return { ok: false, errors };
  return {
    ok: true,
    capabilities: {
      amounts: Object.fromEntries([...amounts.values()].map((a) => [a.name, a.value])),
      attributes: Object.fromEntries([...attributes.values()].map((a) => [a.name, a.values])),
    },
  };
}

/** `NAME=VALUE` with a valid capability name of `kind`; a standard name is lower-cased. */
function splitFlag(flag: string, kind: "amount" | "attr"): { name: string; value: string } | string {
  const eq = flag.indexOf("=");
  if (eq <= 0) return "expected NAME=VALUE";
  const given = flag.slice(0, eq).trim();
  const problem = checkCapabilityName(given, kind);
  if (problem) return problem;
  const lower = given.toLowerCase();
  const standard = kind === "amount" ? STANDARD_AMOUNTS[lower] : STANDARD_ATTRIBUTES[lower];
  return { name: standard ? lower : given, value: flag.slice(eq + 1).trim() };
}

function parseAmount(flag: string): { name: string; value: number } | string {
  const split = splitFlag(flag, "amount");
  if (typeof split === "string") return split;
  const { name, value: text } = split;
  const standard = STANDARD_AMOUNTS[name];
  if (!/^\d+(\.\d+)?$/.test(text)) return `'${text}' is not a non-negative number`;
  const value = Number(text);
  if (!Number.isFinite(value)) return `'${text}' is too large`;
  if (standard && value < standard.min) return `${name} must be at least ${standard.min} ${standard.unit}`;
  return { name, value };
}

function parseAttribute(flag: string): { name: string; values: string[] } | string {
  const split = splitFlag(flag, "attr");
  if (typeof split === "string") return split;
  const { name } = split;
  // Attribute values cannot hold commas, so `attr.x=a,b` is unambiguous.
  const values = split.value.split(",").map((v) => v.trim());
  for (const value of values) {
    const bad = checkAttributeValue(name, value);
    if (bad) return bad;
  }
  return { name, values: STANDARD_ATTRIBUTES[name] ? values.map((v) => v.toLowerCase()) : values };
}

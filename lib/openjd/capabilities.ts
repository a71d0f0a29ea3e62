/**
 * OpenJD host capabilities (spec 2023-09 §3.3): the names a step may require, the standard ones
 * the spec defines, and whether a worker (or a pool advertising ranges) satisfies a step's host
 * requirements. The template validator, the scheduler and the browser portal share this module so
 * that "is this name valid" and "why does no worker match" get the same answer everywhere.
 */

export type CapabilityKind = "amount" | "attr";

export const STANDARD_AMOUNTS: Readonly<Record<string, { min: number; description: string; unit: string }>> = {
  "amount.worker.vcpu": { min: 1, description: "vCPUs / CPU cores on the host", unit: "vCPU" },
  "amount.worker.memory": { min: 0, description: "system memory on the host", unit: "MiB" },
  "amount.worker.gpu": { min: 0, description: "GPUs on the host", unit: "GPU" },
  // Read as the smallest GPU's memory (the project's spec digest): a multi-GPU job can then rely
  // on that much memory on every GPU.
  "amount.worker.gpu.memory": { min: 0, description: "memory of the smallest GPU on the host", unit: "MiB" },
  "amount.worker.disk.scratch": { min: 0, description: "scratch disk space on the host", unit: "GiB" },
};

export const STANDARD_ATTRIBUTES: Readonly<Record<string, { values: readonly string[]; description: string }>> = {
  "attr.worker.os.family": { values: ["linux", "windows", "macos"], description: "operating system family" },
  "attr.worker.cpu.arch": { values: ["x86_64", "arm64"], description: "CPU architecture" },
};

/** First segments after `amount.` / `attr.` that the spec keeps for its own names. */
export const RESERVED_SCOPES: readonly string[] = ["worker", "job", "step", "task"];

const MAX_NAME_LENGTH = 100;
const MAX_VALUE_LENGTH = 100;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
const ATTRIBUTE_VALUE = /^[A-Za-z_][A-Za-z0-9_-]*$/;

const KIND_LABEL: Record<CapabilityKind, string> = { amount: "amount", attr: "attribute" };
const OTHER_KIND: Record<CapabilityKind, CapabilityKind> = { amount: "attr", attr: "amount" };

// Limits are in characters (code points), not UTF-16 units, as everywhere in OpenJD.
function charLength(text: string): number {
  return [...text].length;
}

function standardNames(kind: CapabilityKind): readonly string[] {
  return Object.keys(kind === "amount" ? STANDARD_AMOUNTS : STANDARD_ATTRIBUTES);
}

/** null when valid, else a human message. */
export function checkCapabilityName(name: string, kind: CapabilityKind): string | null {
  const label = KIND_LABEL[kind];
  if (name === "") return `${label} capability name must not be empty`;
  const length = charLength(name);
  if (length > MAX_NAME_LENGTH) {
    return `${label} capability name must be at most ${MAX_NAME_LENGTH} characters, got ${length}`;
  }

  const colon = name.indexOf(":");
  const vendor = colon >= 0 ? name.slice(0, colon) : null;
  const segments = name.slice(colon + 1).split(".");
  const head = (segments[0] ?? "").toLowerCase();
  const tail = segments.slice(1);

  // Checked before the vendor prefix so that the commonest mistake gets the most useful message.
  if (head === OTHER_KIND[kind]) {
    return `${label} names start with '${kind}.', not '${head}.': ${name}`;
  }
  if (head !== kind) {
    return `${label} capability name must start with '${kind}.' (optionally after a 'vendor:' prefix): ${name}`;
  }
  if (vendor !== null && !IDENTIFIER.test(vendor)) {
    return `invalid vendor prefix '${vendor}' in ${label} capability name ${name}: it must be an identifier (letters, digits and '_', not starting with a digit)`;
  }
  if (tail.length === 0 || !tail.every((segment) => IDENTIFIER.test(segment))) {
    return `${name} is not a valid ${label} capability name: expected [vendor:]${kind}.<identifier>[.<identifier>]*, where an identifier is letters, digits and '_', not starting with a digit`;
  }

  // The spec reserves these scopes whatever the vendor prefix, so `acme:amount.worker.vcpu` is
  // rejected too: only the exact standard names may live there.
  const scope = (tail[0] ?? "").toLowerCase();
  if (RESERVED_SCOPES.includes(scope)) {
    const lower = name.toLowerCase();
    const allowed = standardNames(kind);
    if (!allowed.includes(lower)) {
      return `only OpenJD standard capabilities may start with '${kind}.${scope}' (${allowed.join(", ")}): ${name}`;
    }
  }
  return null;
}

/** null when valid, else a human message. */
export function checkAttributeValue(attributeName: string, value: string): string | null {
  if (value === "") return `attribute value must not be empty`;
  const length = charLength(value);
  if (length > MAX_VALUE_LENGTH) {
    return `attribute value must be at most ${MAX_VALUE_LENGTH} characters, got ${length}`;
  }
  if (!ATTRIBUTE_VALUE.test(value)) {
    return `'${value}' is not a valid attribute value: use latin letters, digits, '_' and '-', starting with a letter or '_'`;
  }
  const standard = STANDARD_ATTRIBUTES[attributeName.toLowerCase()];
  if (standard && !standard.values.includes(value.toLowerCase())) {
    return `'${value}' is not a valid value for ${attributeName.toLowerCase()}: use one of ${standard.values.join(", ")}`;
  }
  return null;
}

export interface AmountRequirement {
  name: string;
  min?: number;
  max?: number;
}

export interface AttributeRequirement {
  name: string;
  anyOf?: readonly string[];
  allOf?: readonly string[];
}

export interface HostRequirements {
  amounts: readonly AmountRequirement[];
  attributes: readonly AttributeRequirement[];
}

export interface WorkerCapabilities {
  amounts: Readonly<Record<string, number>>;
  attributes: Readonly<Record<string, readonly string[]>>;
}

export type MatchResult = { ok: true } | { ok: false; reasons: string[] };

/** Worker attribute values keyed by lower-cased value, keeping the first spelling for messages. */
type ValueSet = Map<string, string>;

interface NormalizedCapabilities {
  amounts: Map<string, number>;
  attributes: Map<string, ValueSet>;
}

function normalizeCapabilities(capabilities: WorkerCapabilities): NormalizedCapabilities {
  const amounts = new Map<string, number>();
  for (const [name, value] of Object.entries(capabilities.amounts)) {
    const key = name.toLowerCase();
    const seen = amounts.get(key);
    // Two spellings of one amount is a worker bug; trusting the smaller one never overbooks it.
    amounts.set(key, seen === undefined ? value : Math.min(seen, value));
  }
  const attributes = new Map<string, ValueSet>();
  for (const [name, values] of Object.entries(capabilities.attributes)) {
    const key = name.toLowerCase();
    const set = attributes.get(key) ?? new Map<string, string>();
    for (const value of values) if (!set.has(value.toLowerCase())) set.set(value.toLowerCase(), value);
    attributes.set(key, set);
  }
  return { amounts, attributes };
}

function amountReason(requirement: AmountRequirement, have: number | undefined): string | null {
  const value = have ?? 0;
  const unmet: string[] = [];
  if (requirement.min !== undefined && !(value >= requirement.min)) unmet.push(`>= ${requirement.min}`);
  if (requirement.max !== undefined && !(value <= requirement.max)) unmet.push(`<= ${requirement.max}`);
  if (unmet.length === 0) return null;
  return `needs ${requirement.name} ${unmet.join(" and ")}, worker has ${have === undefined ? "none" : have}`;
}

function attributeReason(requirement: AttributeRequirement, have: ValueSet | undefined): string | null {
  const set = have ?? new Map<string, string>();
  const unmet: string[] = [];
  const { anyOf, allOf } = requirement;
  if (anyOf !== undefined && !anyOf.some((value) => set.has(value.toLowerCase()))) {
    unmet.push(`any of [${anyOf.join(", ")}]`);
  }
  if (allOf !== undefined && !allOf.every((value) => set.has(value.toLowerCase()))) {
    unmet.push(`all of [${allOf.join(", ")}]`);
  }
  if (unmet.length === 0) return null;
  const shown = set.size === 0 ? "none" : `[${[...set.values()].join(", ")}]`;
  return `needs ${requirement.name} ${unmet.join(" and ")}, worker has ${shown}`;
}

/**
 * Whether one worker satisfies a step's host requirements; when not, one reason per unmet
 * requirement so the portal can explain why a step is stuck. Missing amounts count as 0 and
 * missing attributes as the empty set: a worker is only as capable as it says, and a requirement
 * that 0 (or the empty set) satisfies still matches a worker that reported nothing.
 */
export function matchHostRequirements(requirements: HostRequirements | null, capabilities: WorkerCapabilities): MatchResult {
  if (requirements === null) return { ok: true };
  const worker = normalizeCapabilities(capabilities);
  const reasons: string[] = [];
  for (const requirement of requirements.amounts) {
    const reason = amountReason(requirement, worker.amounts.get(requirement.name.toLowerCase()));
    if (reason !== null) reasons.push(reason);
  }
  for (const requirement of requirements.attributes) {
    const reason = attributeReason(requirement, worker.attributes.get(requirement.name.toLowerCase()));
    if (reason !== null) reasons.push(reason);
  }
  return reasons.length === 0 ? { ok: true } : { ok: false, reasons };
}

/**
 * Draft RFC 0008 range matching: a pool whose members have between `range.min` and `range.max`
 * of an amount can serve the requirement iff the two intervals overlap, i.e. some member might.
 * The scheduler uses it to skip pools cheaply before looking at individual workers.
 */
export function matchAmountRange(requirement: Pick<AmountRequirement, "min" | "max">, range: { min: number; max: number }): boolean {
  const minOk = requirement.min === undefined || range.max >= requirement.min;
  const maxOk = requirement.max === undefined || range.min <= requirement.max;
  return minOk && maxOk;
}

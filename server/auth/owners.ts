/**
 * The owner of what an owner rule protects (the job or template a call names), read before the
 * call runs. Owners never change, so reading it first is not a race.
 */
import type { Rule } from "../../lib/farm/access";
import { AppError } from "../context/errors";
import type { Farm } from "../context/farm";
import { ownersRepository } from "../store/owners";

/**
 * The owner id (null: owned by nobody, e.g. from before accounts existed), or undefined when the
 * named template does not exist yet (saving a new one is the caller's own). A save by name
 * changes someone's entry only with `replace`; without it, it overwrites nothing (the service
 * answers CONFLICT or keeps both), so only the role part is decided.
 */
export async function ownerOf(farm: Farm, rule: Extract<Rule, { kind: "ownJob" | "ownTemplate" }>, rawInput: unknown): Promise<string | null | undefined> {
  const value = rawInput !== null && typeof rawInput === "object" ? (rawInput as Record<string, unknown>)[rule.key] : undefined;
  if (typeof value !== "string" || value === "") throw new AppError("BAD_REQUEST", `${rule.key}: required`);
  if (rule.kind === "ownJob") {
    const job = await farm.store.read((tx) => ownersRepository.ofJob(tx, value));
    if (!job) throw new AppError("NOT_FOUND", `no job ${value}`);
    return job.owner_id;
  }
  if (rule.key === "name" && (rawInput as Record<string, unknown>).replace === undefined) return undefined;
  const template = await farm.store.read((tx) => (rule.key === "id" ? ownersRepository.ofTemplateById(tx, value) : ownersRepository.ofTemplateByName(tx, value.trim())));
  if (!template) {
    if (rule.key === "id") throw new AppError("NOT_FOUND", `no template ${value}`);
    return undefined;
  }
  return template.owner_id;
}

/**
 * The library's "that name exists" answer (templates.save / importBundle refuse with CONFLICT
 * and the entry they met), read from a tRPC error, and the question the portal asks about it.
 */
import { formatTimestamp } from "@/lib/farm/display";
import type { ExistingTemplate } from "@/server/services/templates";

export type { ExistingTemplate };

/** The entry a refused save met, or null when the error is something else. */
export function existingOf(error: unknown): ExistingTemplate | null {
  const data = (error as { data?: { appCode?: unknown; details?: unknown } } | null)?.data;
  if (data?.appCode !== "CONFLICT") return null;
  const existing = (data.details as { existing?: Partial<ExistingTemplate> } | null)?.existing;
  if (!existing || typeof existing.id !== "string" || typeof existing.name !== "string" || typeof existing.updatedAt !== "number") return null;
  return {
    id: existing.id,
    name: existing.name,
    updatedAt: existing.updatedAt,
    ownerName: typeof existing.ownerName === "string" ? existing.ownerName : null,
    mayReplace: existing.mayReplace === true,
  };
}

/** "A template named “Shot” exists, saved by ana on 2024-05-01 10:00:00 UTC." */
export function conflictQuestion(existing: ExistingTemplate): string {
  return `A template named “${existing.name}” exists, saved by ${existing.ownerName ?? "nobody"} on ${formatTimestamp(existing.updatedAt)}.`;
}

/** What the artist chose: overwrite that version, save beside it as "name (2)", or leave the library as it is. */
export type ConflictChoice = "replace" | "keepBoth" | "cancel";

/** The save input again, with the choice made (null: not saved). */
export function resolveConflict<T extends object>(input: T, existing: ExistingTemplate, choice: ConflictChoice): (T & { replace?: { id: string; updatedAt: number }; keepBoth?: boolean }) | null {
  if (choice === "cancel") return null;
  if (choice === "keepBoth") return { ...input, keepBoth: true, replace: undefined };
  return { ...input, replace: { id: existing.id, updatedAt: existing.updatedAt }, keepBoth: undefined };
}

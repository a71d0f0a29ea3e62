/** The template library: everyone signed in reads it; artists save and delete their own, wranglers any. */
import { z } from "zod";
import { RULES } from "../../lib/farm/access";
import { getTemplate, listTemplates } from "../queries/templates";
import { deleteTemplate, importBundle, openBundle, saveTemplate } from "../services/templates";
import { SOURCE_LIMITS } from "../../lib/openjd";
import { MAX_BUNDLE_BYTES } from "../services/job-bundle";
import { actorFor, authorized, router, signedIn } from "./trpc";

const templateId = z.object({ id: z.string().min(1).max(100) });

/** Over an existing name: replace the version the caller saw, or keep both; neither is a CONFLICT (services/templates.ts). */
const onExisting = {
  replace: z.object({ id: z.string().min(1).max(100), updatedAt: z.number().int().nonnegative() }).optional(),
  keepBoth: z.boolean().optional(),
};

/** The files of a bundle folder the browser sends (job-bundle.ts reads no others). */
const BUNDLE_FILES = ["template.yaml", "template.json", "parameter_values.yaml", "parameter_values.json"] as const;

function definedOnly(files: Partial<Record<string, string | undefined>>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).filter((e): e is [string, string] => e[1] !== undefined));
}

export const templatesRouter = router({
  list: authorized(RULES.read).query(({ ctx }) => listTemplates(ctx.farm)),
  get: authorized(RULES.read)
    .input(templateId)
    .query(({ ctx, input }) => getTemplate(ctx.farm, input.id, ctx.principal?.userId ?? "anonymous")),
  /**
   * Replacing someone else's entry is for wranglers and admins (the rule reads the owner of the
   * entry `replace` would overwrite); without `replace` nothing is overwritten, so any artist may
   * ask, and meets a CONFLICT or keeps both.
   */
  save: authorized({ kind: "ownTemplate", key: "name" })
    .input(
      z.object({
        name: z.string().max(200),
        text: z.string().max(4 * 1024 * 1024),
        format: z.enum(["yaml", "json"]),
        parameterValues: z.record(z.string(), z.unknown()).optional(),
        ...onExisting,
      }),
    )
    .mutation(({ ctx, input }) => saveTemplate(ctx.farm, input, { caller: signedIn(ctx), actor: actorFor(ctx) })),
  /** A job bundle .zip sent as base64 (JSON has no bytes); read in memory, never unpacked to disk. */
  importBundle: authorized(RULES.submit)
    .input(z.object({ fileName: z.string().min(1).max(255), base64: z.string().max(Math.ceil(MAX_BUNDLE_BYTES / 3) * 4), name: z.string().max(200).optional(), ...onExisting }))
    .mutation(({ ctx, input }) => importBundle(ctx.farm, input, { caller: signedIn(ctx), actor: actorFor(ctx) })),
  /**
   * A job bundle opened on /submit: its template and parameter values, nothing kept. A .zip as
   * base64, or a folder (chosen with webkitdirectory) as its bundle files' texts.
   */
  readBundle: authorized(RULES.submit)
    .input(
      z.union([
        z.object({ fileName: z.string().min(1).max(255), base64: z.string().max(Math.ceil(MAX_BUNDLE_BYTES / 3) * 4) }),
        z.object({
          folderName: z.string().min(1).max(255),
          files: z.strictObject(
            Object.fromEntries(BUNDLE_FILES.map((name) => [name, z.string().max(SOURCE_LIMITS.maxTextLength).optional()])) as Record<(typeof BUNDLE_FILES)[number], z.ZodOptional<z.ZodString>>,
          ),
        }),
      ]),
    )
    .mutation(({ ctx, input }) => openBundle(ctx.farm, "files" in input ? { folderName: input.folderName, files: definedOnly(input.files) } : input, signedIn(ctx))),
  delete: authorized({ kind: "ownTemplate", key: "id" })
    .input(templateId)
    .mutation(({ ctx, input }) => deleteTemplate(ctx.farm, input.id, actorFor(ctx))),
});

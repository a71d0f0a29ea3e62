/** The template library: everyone signed in reads it; artists save and delete their own, wranglers any. */
import { z } from "zod";
import { RULES } from "../../lib/farm/access";
import { getTemplate, listTemplates } from "../queries/templates";
import { deleteTemplate, importBundle, saveTemplate } from "../services/templates";
import { MAX_BUNDLE_BYTES } from "../services/job-bundle";
import { actorFor, authorized, router, signedIn } from "./trpc";

const templateId = z.object({ id: z.string().min(1).max(100) });

export const templatesRouter = router({
  list: authorized(RULES.read).query(({ ctx }) => listTemplates(ctx.farm)),
  get: authorized(RULES.read).input(templateId).query(({ ctx, input }) => getTemplate(ctx.farm, input.id, ctx.principal?.userId ?? "anonymous")),
  /** Saving under a name that is someone else's entry replaces it only for wranglers (the rule reads the entry's owner by name). */
  save: authorized({ kind: "ownTemplate", key: "name" })
    .input(
      z.object({
        name: z.string().max(200),
        text: z.string().max(4 * 1024 * 1024),
        format: z.enum(["yaml", "json"]),
        parameterValues: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .mutation(({ ctx, input }) => saveTemplate(ctx.farm, input, { caller: signedIn(ctx), actor: actorFor(ctx) })),
  /** A job bundle .zip sent as base64 (JSON has no bytes); read in memory, never unpacked to disk. */
  importBundle: authorized(RULES.submit)
    .input(z.object({ fileName: z.string().min(1).max(255), base64: z.string().max(Math.ceil(MAX_BUNDLE_BYTES / 3) * 4), name: z.string().max(200).optional() }))
    .mutation(({ ctx, input }) => importBundle(ctx.farm, input, { caller: signedIn(ctx), actor: actorFor(ctx) })),
  delete: authorized({ kind: "ownTemplate", key: "id" })
    .input(templateId)
    .mutation(({ ctx, input }) => deleteTemplate(ctx.farm, input.id, actorFor(ctx))),
});

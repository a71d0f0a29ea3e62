/** The template library (artists): list, get, save, import a job bundle, delete. */
import { z } from "zod";
import { getTemplate, listTemplates } from "../queries/templates";
import { deleteTemplate, importBundle, saveTemplate } from "../services/templates";
import { MAX_BUNDLE_BYTES } from "../services/job-bundle";
import { publicProcedure, router } from "./trpc";

const templateId = z.object({ id: z.string().min(1) });

export const templatesRouter = router({
  list: publicProcedure.query(({ ctx }) => listTemplates(ctx.farm)),
  get: publicProcedure.input(templateId).query(({ ctx, input }) => getTemplate(ctx.farm, input.id)),
  save: publicProcedure
    .input(
      z.object({
        name: z.string().max(200),
        text: z.string().max(4 * 1024 * 1024),
        format: z.enum(["yaml", "json"]),
        parameterValues: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .mutation(({ ctx, input }) => saveTemplate(ctx.farm, input)),
  /** A job bundle .zip sent as base64 (JSON has no bytes); read in memory, never unpacked to disk. */
  importBundle: publicProcedure
    .input(z.object({ fileName: z.string().min(1).max(255), base64: z.string().max(Math.ceil(MAX_BUNDLE_BYTES / 3) * 4), name: z.string().max(200).optional() }))
    .mutation(({ ctx, input }) => importBundle(ctx.farm, input)),
  delete: publicProcedure.input(templateId).mutation(({ ctx, input }) => deleteTemplate(ctx.farm, input.id)),
});

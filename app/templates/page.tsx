import type { Metadata } from "next";
import { allows, requireSignIn } from "@/app/session";
import { HydrateClient, prefetch, trpc } from "@/app/trpc-server";
import { RULES } from "@/lib/farm/access";
import { AddTemplates } from "@/components/templates/add-templates";
import { TemplateLibrary } from "@/components/templates/template-library";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Templates" };

/** The artists' template library: add templates and job bundles, then edit or submit them. */
export default async function TemplatesPage() {
  const me = await requireSignIn("/templates");
  await prefetch(trpc.templates.list.queryOptions());
  return (
    <main>
      <h1>Templates</h1>
      <p className="lead">
        Job and environment templates kept for reuse. Each is read with the same checks as <code>loom check</code>; templates with errors are kept (and counted) so they can be fixed in the editor, but
        only readable templates are accepted.
      </p>
      <HydrateClient>
        {allows(me, RULES.submit) && <AddTemplates />}
        <TemplateLibrary />
      </HydrateClient>
    </main>
  );
}

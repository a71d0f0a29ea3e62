import type { Metadata } from "next";
import { requireSignIn } from "@/app/session";
import { fetchOrNotFound, HydrateClient, trpc } from "@/app/trpc-server";
import { pathWithQuery } from "@/components/auth/next-path";
import { TemplateEditor } from "@/components/editor/template-editor";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Template editor" };

/** The artists' template editor: a new template, or `?template=<id>` from the library. */
export default async function EditorPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const search = await searchParams;
  await requireSignIn(pathWithQuery("/editor", search));
  const param = search.template;
  const templateId = typeof param === "string" && param !== "" ? param : null;
  // A wrong library link is a 404 page at once (not-found.tsx), not an editor that never loads.
  if (templateId) await fetchOrNotFound(trpc.templates.get.queryOptions({ id: templateId }));
  return (
    <main className="wide">
      <h1>Template editor</h1>
      <p className="lead">
        Write a job or environment template in YAML or JSON. Errors are checked as you type, exactly as <code>loom check</code> reports them; press Ctrl+Space for the fields and values the format
        allows, and hover a field for its documentation.
      </p>
      <HydrateClient>
        <TemplateEditor templateId={templateId} />
      </HydrateClient>
    </main>
  );
}

import type { Metadata } from "next";
import { allows, requireSignIn } from "@/app/session";
import { fetchOrNotFound, HydrateClient, trpc } from "@/app/trpc-server";
import { NeedsRole } from "@/components/auth/needs-role";
import { pathWithQuery } from "@/components/auth/next-path";
import { SubmitJob } from "@/components/submit/submit-job";
import { RULES } from "@/lib/farm/access";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Submit" };

/** Artists submit a job: a template file or a library template (`?template=<id>`) becomes a form; preview, then submit. */
export default async function SubmitPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const search = await searchParams;
  const me = await requireSignIn(pathWithQuery("/submit", search));
  const raw = search.template;
  const templateId = typeof raw === "string" && raw !== "" ? raw : null;
  const may = allows(me, RULES.submit);
  // A wrong library link is a 404 page at once (not-found.tsx), not a form that never loads.
  if (may && templateId) await fetchOrNotFound(trpc.templates.get.queryOptions({ id: templateId }));
  return (
    <main>
      <h1>Submit a job</h1>
      <p className="lead">Open a job template, fill in its parameters, preview the steps and the pools that can run them, then submit. {may && `The job is yours: it is submitted as ${me.name}.`}</p>
      {may ? (
        <HydrateClient>
          <SubmitJob templateId={templateId} />
        </HydrateClient>
      ) : (
        <NeedsRole role="artist" what="Submitting jobs" yours={me.role} />
      )}
    </main>
  );
}

import type { Metadata } from "next";
import { HydrateClient, prefetch, trpc } from "@/app/trpc-server";
import { SubmitJob } from "@/components/submit/submit-job";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Submit" };

/** Artists submit a job: a template file or a library template (`?template=<id>`) becomes a form; preview, then submit. */
export default async function SubmitPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = (await searchParams).template;
  const templateId = typeof raw === "string" && raw !== "" ? raw : null;
  if (templateId) prefetch(trpc.templates.get.queryOptions({ id: templateId }));
  return (
    <main>
      <h1>Submit a job</h1>
      <p className="lead">Open a job template, fill in its parameters, preview the steps and the pools that can run them, then submit.</p>
      <HydrateClient>
        <SubmitJob templateId={templateId} />
      </HydrateClient>
    </main>
  );
}

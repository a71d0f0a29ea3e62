import type { Metadata } from "next";
import { requireSignIn } from "@/app/session";
import { HydrateClient, prefetch, trpc } from "@/app/trpc-server";
import { pathWithQuery } from "@/components/auth/next-path";
import { jobViewInput, parseJobView } from "@/components/jobs/job-view";
import { JobsTable } from "@/components/jobs/jobs-table";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Jobs" };

/** The wrangler's job table: the view lives in the URL, so the server prefetches exactly the page the browser will show. */
export default async function JobsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const search = await searchParams;
  await requireSignIn(pathWithQuery("/jobs", search));
  const view = parseJobView(search);
  await prefetch(trpc.jobs.list.queryOptions(jobViewInput(view)), trpc.jobs.submitters.queryOptions());
  return (
    <main className="wide">
      <h1>Jobs</h1>
      <p className="lead">Every job on the farm, live. Filter, sort and page on the server; the address bar keeps the view, so it can be shared.</p>
      <HydrateClient>
        <JobsTable />
      </HydrateClient>
    </main>
  );
}

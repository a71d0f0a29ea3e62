import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { currentPrincipal, requireSignIn } from "@/app/session";
import { getQueryClient, HydrateClient, prefetch, trpc } from "@/app/trpc-server";
import { pathWithQuery } from "@/components/auth/next-path";
import { JobDetail } from "@/components/job/job-detail";
import { TASK_PAGE_SIZE } from "@/components/job/task-pages";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ jobId: string }> };

/** The job through the router (cached for the request, so metadata and page read it once); 404 when there is none. */
async function loadJob(jobId: string) {
  try {
    return await getQueryClient().fetchQuery(trpc.jobs.get.queryOptions({ jobId }));
  } catch (error) {
    if ((error as { code?: string }).code === "NOT_FOUND") notFound();
    throw error;
  }
}

export async function generateMetadata({ params }: Params): Promise<Metadata> {
  // Signed out, the page itself redirects to the sign-in page; the job is not read for it.
  if (!(await currentPrincipal())) return { title: "Job" };
  return { title: (await loadJob((await params).jobId)).name };
}

/** A job for wranglers; the server prefetches the job and the first page of the shown step's tasks. */
export default async function JobPage({ params, searchParams }: Params & { searchParams: Promise<{ step?: string | string[] }> }) {
  const { jobId } = await params;
  const search = await searchParams;
  await requireSignIn(pathWithQuery(`/jobs/${encodeURIComponent(jobId)}`, search));
  const { step } = search;
  const wanted = Array.isArray(step) ? step[0] : step;
  const job = await loadJob(jobId);
  const stepId = job.steps.find((s) => s.id === wanted)?.id ?? job.steps[0]?.id;
  if (stepId) await prefetch(trpc.jobs.tasks.queryOptions({ stepId, offset: 0, limit: TASK_PAGE_SIZE }));
  return (
    <main className="wide">
      <HydrateClient>
        <JobDetail jobId={jobId} initialStepId={stepId} />
      </HydrateClient>
    </main>
  );
}

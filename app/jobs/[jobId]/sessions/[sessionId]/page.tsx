/**
 * A Session of a job: its actions on a timeline, the focused action's status and progress, and
 * the live log (`?task=<taskId>` offers the task's attempts; `?action=<actionId>` shows one action).
 * A Session that is not in that job is not-found.tsx, with HTTP 404.
 */
import { SessionView } from "@/components/session/session-view";
import { requireSignIn } from "@/app/session";
import { fetchOrNotFound, HydrateClient, trpc } from "@/app/trpc-server";
import { pathWithQuery } from "@/components/auth/next-path";

export const dynamic = "force-dynamic";

export async function generateMetadata({ params }: { params: Promise<{ sessionId: string }> }) {
  const { sessionId } = await params;
  return { title: `Session ${sessionId}` };
}

export default async function SessionPage({ params, searchParams }: { params: Promise<{ jobId: string; sessionId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { jobId, sessionId } = await params;
  const search = await searchParams;
  await requireSignIn(pathWithQuery(`/jobs/${encodeURIComponent(jobId)}/sessions/${encodeURIComponent(sessionId)}`, search));
  const task = Number(one(search.task));
  const action = one(search.action);
  // Read before anything streams: a wrong link is a 404 page at once (the Session of another job too).
  await fetchOrNotFound(trpc.logs.session.queryOptions({ sessionId, jobId }));
  return (
    <main className="wide">
      <HydrateClient>
        <SessionView jobId={jobId} sessionId={sessionId} taskId={Number.isInteger(task) && one(search.task) !== undefined ? task : null} actionId={action ?? null} />
      </HydrateClient>
    </main>
  );
}

function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

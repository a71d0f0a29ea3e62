import type { Metadata } from "next";
import { requireSignIn } from "@/app/session";
import { HydrateClient, prefetch, trpc } from "@/app/trpc-server";
import { pathWithQuery } from "@/components/auth/next-path";
import { WorkerTimeline } from "@/components/admin/worker-timeline";
import { WorkersTable } from "@/components/admin/workers-table";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Workers" };

/** Every worker, live; `?pool=<id>` keeps to one pool (the Pools page links here that way). */
export default async function WorkersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const search = await searchParams;
  await requireSignIn(pathWithQuery("/workers", search));
  const pool = search.pool;
  const poolId = typeof pool === "string" && pool !== "" ? pool : undefined;
  await prefetch(trpc.workers.list.queryOptions(poolId ? { poolId } : {}));
  return (
    <main className="wide">
      <h1>Workers</h1>
      <p className="lead">
        What each worker is, runs and last said. Admins drain one after its current task to take it out gently, or now to free it at once.
        {poolId && " Showing one pool."}
      </p>
      <HydrateClient>
        <WorkersTable {...(poolId ? { poolId } : {})} />
        <WorkerTimeline {...(poolId ? { poolId } : {})} />
      </HydrateClient>
    </main>
  );
}

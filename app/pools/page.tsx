import type { Metadata } from "next";
import { requireSignIn } from "@/app/session";
import { HydrateClient, prefetch, trpc } from "@/app/trpc-server";
import { PoolsAdmin } from "@/components/admin/pools-table";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Pools" };

/** Worker pools: each has a bearer token its workers present; the token is shown once. */
export default async function PoolsPage() {
  await requireSignIn("/pools");
  await prefetch(trpc.pools.list.queryOptions());
  return (
    <main className="wide">
      <h1>Pools</h1>
      <p className="lead">A pool is a set of workers that share a token. Admins create one to get its token (shown once), rotate a leaked token, stop a pool taking work, or drain it.</p>
      <HydrateClient>
        <PoolsAdmin />
      </HydrateClient>
    </main>
  );
}

import type { Metadata } from "next";
import { requireSignIn } from "@/app/session";
import { HydrateClient, prefetch, trpc } from "@/app/trpc-server";
import { OverviewLive } from "@/components/overview/overview-live";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Overview" };

/** The farm at a glance; also the home page. */
export default async function OverviewPage() {
  await requireSignIn("/overview");
  await prefetch(trpc.overview.get.queryOptions());
  return (
    <main>
      <h1>Overview</h1>
      <p className="lead">Workers and tasks across the farm, and how many tasks finish each minute. Everything here updates as it happens.</p>
      <HydrateClient>
        <OverviewLive />
      </HydrateClient>
    </main>
  );
}

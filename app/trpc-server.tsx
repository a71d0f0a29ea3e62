/**
 * Server Components prefetch through the same router the browser calls (CONVENTIONS rule 2):
 * `await prefetch(trpc.jobs.get.queryOptions({ jobId }))`, then render the client leaves inside
 * `<HydrateClient>` so they start with the data instead of a spinner. The context is the signed-in
 * caller of this request (app/session.ts), so prefetches obey the same rules as the browser's calls.
 */
import "server-only";
import { dehydrate, HydrationBoundary, type FetchQueryOptions, type QueryKey } from "@tanstack/react-query";
import { createTRPCOptionsProxy, type TRPCQueryOptions } from "@trpc/tanstack-react-query";
import { notFound } from "next/navigation";
import { cache, type ReactNode } from "react";
import { makeQueryClient } from "@/components/query-client";
import { appRouter } from "@/server/router";
import { callerContext } from "@/server/router/trpc";
import { getFarm } from "@/server/services/farm-runtime";
import { currentPrincipal } from "./session";

export const getQueryClient = cache(makeQueryClient);

export const trpc = createTRPCOptionsProxy({
  ctx: async () => callerContext(getFarm(), await currentPrincipal(), { sameOrigin: false }),
  router: appRouter,
  queryClient: getQueryClient,
});

/**
 * Reads queries into the request's QueryClient before the page renders, so the server's HTML and
 * the browser's first render draw the same data. Not left streaming: a client leaf that reads with
 * `useQuery` draws "Loading…" on the server while the query is pending, and the data on the
 * browser once the streamed result has arrived, a hydration mismatch (React error #418). On
 * SQLite the queries used to finish before the render; on PostgreSQL they did not.
 * A failed read is left to the client leaf, which shows the error (prefetchQuery never throws).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function prefetch(...options: Array<ReturnType<TRPCQueryOptions<any>>>): Promise<void> {
  const client = getQueryClient();
  await Promise.all(options.map((one) => client.prefetchQuery(one)));
}

/**
 * A query the page cannot be drawn without, read before anything streams: a missing record (or
 * one the caller may not see, which the router answers the same way) is the segment's
 * not-found page with HTTP 404 (issue 11: a wrong link answered 200 and a spinner). The result
 * stays in the request's QueryClient, so the client leaves start with it.
 */
export async function fetchOrNotFound<TQueryFnData, TError, TData, TQueryKey extends QueryKey>(options: FetchQueryOptions<TQueryFnData, TError, TData, TQueryKey>): Promise<TData> {
  try {
    return await getQueryClient().fetchQuery(options);
  } catch (error) {
    if ((error as { code?: string }).code === "NOT_FOUND") notFound();
    throw error;
  }
}

export function HydrateClient({ children }: { children: ReactNode }) {
  return <HydrationBoundary state={dehydrate(getQueryClient())}>{children}</HydrationBoundary>;
}

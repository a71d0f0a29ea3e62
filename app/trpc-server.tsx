/**
 * Server Components prefetch through the same router the browser calls (CONVENTIONS rule 2):
 * `prefetch(trpc.jobs.get.queryOptions({ jobId }))`, then render the client leaves inside
 * `<HydrateClient>` so they start with the data instead of a spinner. The context is the signed-in
 * caller of this request (app/session.ts), so prefetches obey the same rules as the browser's calls.
 */
import "server-only";
import { dehydrate, HydrationBoundary } from "@tanstack/react-query";
import { createTRPCOptionsProxy, type TRPCQueryOptions } from "@trpc/tanstack-react-query";
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

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function prefetch<T extends ReturnType<TRPCQueryOptions<any>>>(options: T): void {
  void getQueryClient().prefetchQuery(options);
}

export function HydrateClient({ children }: { children: ReactNode }) {
  return <HydrationBoundary state={dehydrate(getQueryClient())}>{children}</HydrationBoundary>;
}

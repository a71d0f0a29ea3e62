/** One QueryClient factory for the browser and for Server Components that prefetch. */
import { defaultShouldDehydrateQuery, QueryClient } from "@tanstack/react-query";

/**
 * A refusal or a missing record answers the same on a second try: show it at once (issue 11: a
 * wrong link showed "Loading…" for 7.5 s of retries). Network and server faults get 3 retries.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  const status = (error as { data?: { httpStatus?: unknown } } | null)?.data?.httpStatus;
  if (typeof status === "number" && status >= 400 && status < 500) return false;
  return failureCount < 3;
}

export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // Live views are pushed by subscriptions; a refetch on focus would only repeat them.
      queries: { staleTime: 30_000, refetchOnWindowFocus: false, retry: shouldRetry },
      // Prefetches still in flight are streamed to the browser too.
      dehydrate: { shouldDehydrateQuery: (query) => defaultShouldDehydrateQuery(query) || query.state.status === "pending" },
    },
  });
}

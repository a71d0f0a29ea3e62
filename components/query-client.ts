/** One QueryClient factory for the browser and for Server Components that prefetch. */
import { defaultShouldDehydrateQuery, QueryClient } from "@tanstack/react-query";

export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      // Live views are pushed by subscriptions; a refetch on focus would only repeat them.
      queries: { staleTime: 30_000, refetchOnWindowFocus: false },
      // Prefetches still in flight are streamed to the browser too.
      dehydrate: { shouldDehydrateQuery: (query) => defaultShouldDehydrateQuery(query) || query.state.status === "pending" },
    },
  });
}

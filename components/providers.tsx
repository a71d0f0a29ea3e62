"use client";

import { QueryClientProvider, type QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, httpSubscriptionLink, splitLink } from "@trpc/client";
import { useState, type ReactNode } from "react";
import type { AppRouter } from "@/server/router";
import { makeQueryClient } from "./query-client";
import { TRPCProvider } from "./trpc";
import { RenderTimeProvider } from "./ui/render-time";

let browserQueryClient: QueryClient | undefined;

/** On the server a fresh client per request; in the browser one for the page's lifetime. */
function queryClient(): QueryClient {
  if (typeof window === "undefined") return makeQueryClient();
  return (browserQueryClient ??= makeQueryClient());
}

/**
 * Same-origin only: subscriptions over SSE (EventSource), everything else batched over HTTP.
 * `renderedAt`: when the server rendered the page (the clock the browser hydrates with).
 */
export function Providers({ renderedAt, children }: { renderedAt: number; children: ReactNode }) {
  const client = queryClient();
  const [trpcClient] = useState(() =>
    createTRPCClient<AppRouter>({
      links: [
        splitLink({
          condition: (op) => op.type === "subscription",
          true: httpSubscriptionLink({ url: "/api/trpc" }),
          false: httpBatchLink({ url: "/api/trpc" }),
        }),
      ],
    }),
  );
  return (
    <QueryClientProvider client={client}>
      <TRPCProvider trpcClient={trpcClient} queryClient={client}>
        <RenderTimeProvider at={renderedAt}>{children}</RenderTimeProvider>
      </TRPCProvider>
    </QueryClientProvider>
  );
}

/**
 * The portal's typed tRPC hooks (CONVENTIONS rule 2): components call `useTRPC()` and pass its
 * `queryOptions()` / `mutationOptions()` / `subscriptionOptions()` to TanStack Query.
 */
import { createTRPCContext } from "@trpc/tanstack-react-query";
import type { AppRouter } from "@/server/router";

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

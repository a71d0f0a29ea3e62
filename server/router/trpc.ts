/**
 * The one tRPC init (CONVENTIONS rule 1): the context (the farm), the building blocks, and the
 * error formatter — AppError codes map to tRPC codes here and nowhere else; zod errors reach
 * forms as a flattened field list.
 */
import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { AppError, type ErrorCode } from "../services/errors";
import type { Farm } from "../services/farm";

export interface Context {
  farm: Farm;
}

const t = initTRPC.context<Context>().create({
  sse: { ping: { enabled: true, intervalMs: 5_000 }, client: { reconnectAfterInactivityMs: 10_000 } },
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    return {
      ...shape,
      data: {
        ...shape.data,
        appCode: cause instanceof AppError ? cause.code : null,
        details: cause instanceof AppError ? (cause.details ?? null) : null,
        zodIssues: cause instanceof ZodError ? cause.issues.map((i) => ({ path: i.path.join("."), message: i.message })) : null,
      },
    };
  },
});

const TRPC_CODES: Record<ErrorCode, TRPCError["code"]> = {
  BAD_REQUEST: "BAD_REQUEST",
  UNAUTHORIZED: "UNAUTHORIZED",
  NOT_FOUND: "NOT_FOUND",
  CONFLICT: "CONFLICT",
  LEASE_CONFLICT: "CONFLICT",
  INTERNAL: "INTERNAL_SERVER_ERROR",
};

/** Turns an AppError thrown by a service into the matching TRPCError. */
const appErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof AppError) {
    const cause = result.error.cause;
    throw new TRPCError({ code: TRPC_CODES[cause.code], message: cause.message, cause });
  }
  return result;
});

export const router = t.router;
export const publicProcedure = t.procedure.use(appErrors);
export const createCallerFactory = t.createCallerFactory;

/**
 * The one tRPC init (CONVENTIONS rule 1): the context (the farm and the caller), the only
 * procedure builder — `authorized(rule)`, so every procedure declares who may call it beside its
 * input schema — and the error formatter: AppError codes map to tRPC codes here and nowhere
 * else; zod errors reach forms as a flattened field list; internal errors reach nobody in detail.
 *
 * `router()` refuses a procedure without a rule, so the server does not start with one (and the
 * authorization matrix test fails on it).
 */
import { initTRPC, TRPCError, type AnyRouter } from "@trpc/server";
import { ZodError } from "zod";
import { decide, type Rule } from "../../lib/farm/access";
import { authenticate, type Credentials } from "../auth/authenticate";
import { ownerOf } from "../auth/owners";
import { actorOf, type Principal, type RequestOrigin } from "../auth/principal";
import { openStream } from "../auth/streams";
import { audit } from "../services/audit";
import { AppError, type ErrorCode } from "../context/errors";
import { isStoreFull, storeHealth } from "../services/store-health";
import type { Farm } from "../context/farm";

export interface Context {
  farm: Farm;
  /** The caller; null when nobody is signed in. */
  principal: Principal | null;
  /** Why a credential the request carried was refused (a rule that needs a caller reports it). */
  authError: AppError | null;
  origin: RequestOrigin;
  /** The request passed the same-origin check (CSRF); needed by every mutation. */
  sameOrigin: boolean;
  /** What authenticated the request, to check again during long subscriptions. */
  credentials: Credentials | null;
  /** Where sign-in and sign-out put their Set-Cookie (null for in-process callers). */
  responseHeaders: Headers | null;
  /** Cookies are Secure when the portal is served over HTTPS. */
  secureCookies: boolean;
}

export interface Meta {
  rule: Rule;
}

const t = initTRPC
  .context<Context>()
  .meta<Meta>()
  .create({
    // Never a stack trace in an answer, whatever NODE_ENV says.
    isDev: false,
    sse: { ping: { enabled: true, intervalMs: 5_000 }, client: { reconnectAfterInactivityMs: 10_000 } },
    errorFormatter({ shape, error }) {
      const cause = error.cause;
      const internal = error.code === "INTERNAL_SERVER_ERROR" && !(cause instanceof AppError);
      return {
        ...shape,
        message: internal ? "internal error (the server's log has the details)" : shape.message,
        data: {
          code: shape.data.code,
          httpStatus: shape.data.httpStatus,
          path: shape.data.path,
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
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  CONFLICT: "CONFLICT",
  LEASE_CONFLICT: "CONFLICT",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  TOO_MANY_REQUESTS: "TOO_MANY_REQUESTS",
  UNAVAILABLE: "SERVICE_UNAVAILABLE",
  INTERNAL: "INTERNAL_SERVER_ERROR",
};

export function toTrpcError(error: AppError): TRPCError {
  return new TRPCError({ code: TRPC_CODES[error.code], message: error.message, cause: error });
}

/** Turns an AppError thrown by a service into the matching TRPCError; logs what is not one. */
const appErrors = t.middleware(async ({ ctx, next, path }) => {
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause;
    if (cause instanceof AppError) throw toTrpcError(cause);
    // A full disk is said as such (503), once in the server's log, not as an internal error per call.
    if (isStoreFull(cause)) throw toTrpcError(storeHealth(ctx.farm.store).failed(cause));
    if (result.error.code === "INTERNAL_SERVER_ERROR") console.error(`tRPC ${path} failed`, cause ?? result.error);
  }
  return result;
});

/**
 * The authorization layer. For mutations the same-origin check comes first: a forged cross-site
 * call is refused before anything else is looked at (it writes no audit row in its victim's name
 * and learns nothing about what it names). Then the procedure's rule against the caller: its role
 * part first, and for owner rules then the owner of the job or template the input names. For
 * subscriptions, the per-user stream limit and a fresh check of the caller while it streams.
 */
const authorize = t.middleware(async ({ ctx, meta, type, path, getRawInput, next, signal }) => {
  const rule = meta?.rule;
  if (!rule) throw new TRPCError({ code: "INTERNAL_SERVER_ERROR", message: `${path} declares no rule` });
  if (type === "mutation" && !ctx.sameOrigin) {
    throw new TRPCError({ code: "FORBIDDEN", message: "cross-site request refused: a browser may change things only from the portal's own pages" });
  }
  if (rule.kind !== "anyone" && ctx.authError) throw toTrpcError(ctx.authError);
  let verdict = decide(ctx.principal, rule);
  if (verdict.ok && ctx.principal && (rule.kind === "ownJob" || rule.kind === "ownTemplate")) verdict = decide(ctx.principal, rule, await ownerOf(ctx.farm, rule, await getRawInput()));
  if (!verdict.ok) {
    if (type === "mutation" && ctx.principal) await refused(ctx, path, verdict.message);
    throw new TRPCError({ code: verdict.status, message: verdict.message });
  }
  if (type !== "subscription") return next();
  const stream = openStream(ctx, path, signal);
  const result = await next();
  if (!result.ok) {
    stream.close();
    return result;
  }
  return { ...result, data: stream.watch(result.data as AsyncIterable<unknown>) } as typeof result;
});

async function refused(ctx: Context, path: string, message: string): Promise<void> {
  try {
    await ctx.farm.store.transaction((tx) =>
      audit(tx, ctx.farm, actorOf(ctx.principal, ctx.origin), { action: "access.refused", target: { kind: "procedure", id: path }, outcome: "refused", detail: message }),
    );
  } catch (error) {
    console.error("audit of a refused call failed", error);
  }
}

/** The only way to make a procedure: say who may call it. */
export function authorized(rule: Rule) {
  return t.procedure.meta({ rule }).use(appErrors).use(authorize);
}

export const createCallerFactory = t.createCallerFactory;

/** The signed-in caller of a procedure whose rule needs one (the rule has already been checked). */
export function signedIn(ctx: Context): Principal {
  if (!ctx.principal) throw new TRPCError({ code: "UNAUTHORIZED", message: "sign in first" });
  return ctx.principal;
}

/** Who an audit row names for this call. */
export function actorFor(ctx: Context) {
  return actorOf(ctx.principal, ctx.origin);
}

type RouterInput = Parameters<typeof t.router>[0];

/** t.router, refusing any procedure that declares no rule. */
export function router<T extends RouterInput>(record: T) {
  const built = t.router(record);
  for (const [path, procedure] of Object.entries((built as AnyRouter)._def.procedures)) {
    const meta = (procedure as { _def: { meta?: Partial<Meta> } })._def.meta;
    if (!meta?.rule) throw new Error(`tRPC procedure ${path} declares no rule: build it with authorized(RULES.…)`);
  }
  return built;
}

/** A context for in-process callers (Server Components, tests): no request, same rules. */
export function callerContext(farm: Farm, principal: Principal | null, options: { sameOrigin?: boolean; origin?: RequestOrigin } = {}): Context {
  return {
    farm,
    principal,
    authError: null,
    origin: options.origin ?? { address: null, userAgent: null },
    sameOrigin: options.sameOrigin ?? true,
    credentials: null,
    responseHeaders: null,
    secureCookies: false,
  };
}

/** The caller of an HTTP request (errors of a present-but-bad credential kept for the rules). */
export async function resolvePrincipal(farm: Farm, credentials: Credentials): Promise<{ principal: Principal | null; authError: AppError | null }> {
  try {
    return { principal: await authenticate(farm, credentials), authError: null };
  } catch (error) {
    if (error instanceof AppError) return { principal: null, authError: error };
    throw error;
  }
}

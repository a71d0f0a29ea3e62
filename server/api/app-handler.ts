/**
 * Every API request of the farm server, fetch-style: the worker protocol under /api/worker/,
 * tRPC under /api/trpc/, and the few plain routes (the audit export). The Node front
 * (node-server.ts) checks the Host and reads the body within its limits before it calls this;
 * the Next.js route handlers (`next dev`) call it with the request as it came, and it does the
 * same checks itself first.
 */
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { SESSION_COOKIE } from "../auth/authenticate";
import { appRouter } from "../router";
import { resolvePrincipal, type Context } from "../router/trpc";
import { AppError, HTTP_STATUS } from "../context/errors";
import type { Farm } from "../context/farm";
import { auditExport } from "./audit-export";
import type { BodyCaller, RequestInfo, ServerHandler } from "./node-server";
import { BODY_LIMITS, bodyLimitFor, cookieValue, hostAllowed, MAX_BATCH_CALLS, misdirected, readLimited, sameOriginRequest } from "./request-guards";
import { admitWorker, handleWorkerRequest, workerCall } from "./worker-api";

const TRPC_ENDPOINT = "/api/trpc";

/** The tRPC context of an HTTP request: who calls (checked once per request), from where, and the CSRF verdict. */
export async function requestContext(farm: Farm, request: Request, info: RequestInfo, responseHeaders: Headers): Promise<Context> {
  const credentials = {
    authorization: request.headers.get("authorization"),
    sessionCookie: cookieValue(request.headers.get("cookie"), SESSION_COOKIE),
    address: info.address,
  };
  const { principal, authError } = await resolvePrincipal(farm, credentials);
  const publicUrl = farm.settings.publicUrl;
  return {
    farm,
    principal,
    authError,
    origin: { address: info.address, userAgent: request.headers.get("user-agent")?.slice(0, 300) ?? null },
    sameOrigin: sameOriginRequest(request.headers, farm.settings),
    credentials,
    responseHeaders,
    secureCookies: (publicUrl ?? request.url).startsWith("https:"),
  };
}

function handleTrpcRequest(farm: Farm, request: Request, info: RequestInfo): Promise<Response> {
  return fetchRequestHandler({
    endpoint: TRPC_ENDPOINT,
    req: request,
    router: appRouter,
    maxBatchSize: MAX_BATCH_CALLS,
    createContext: ({ resHeaders }) => requestContext(farm, request, info, resHeaders),
  });
}

/**
 * Whether a caller may send a body larger than a stranger's share: a worker or pool credential
 * on the worker API, a signed-in caller on tRPC (null), or why not. Nothing but signing in
 * answers a caller the farm does not know, and that takes small bodies only.
 */
export async function admitBody(farm: Farm, caller: BodyCaller): Promise<AppError | null> {
  if (caller.path.startsWith("/api/worker/")) return admitWorker(farm, caller.path, caller.authorization);
  const { principal, authError } = await resolvePrincipal(farm, { authorization: caller.authorization, sessionCookie: cookieValue(caller.cookie, SESSION_COOKIE), address: caller.address });
  if (principal) return null;
  return authError ?? new AppError("UNAUTHORIZED", `sign in first (or send a token as 'Authorization: Bearer <token>'): a caller who is not signed in may send at most ${BODY_LIMITS.auth / 1024} KiB`);
}

/** The request with its body read within the route's limits (for callers other than the Node front). */
async function withBodyRead(farm: Farm, request: Request, path: string, info: RequestInfo): Promise<Request> {
  if (request.method === "GET" || request.method === "HEAD" || request.body === null) return request;
  const caller = (): BodyCaller => ({ path, authorization: request.headers.get("authorization"), cookie: request.headers.get("cookie"), address: info.address });
  const chunks = request.body as unknown as AsyncIterable<Uint8Array>;
  const body = await readLimited(chunks, bodyLimitFor(path), request.headers.get("content-length"), () => void request.body?.cancel().catch(() => undefined), {
    bytes: BODY_LIMITS.auth,
    admit: () => admitBody(farm, caller()),
  });
  return new Request(request.url, { method: request.method, headers: request.headers, body: body as unknown as BodyInit, signal: request.signal });
}

function jsonError(error: AppError): Response {
  return new Response(JSON.stringify({ error: error.code, message: error.message }), { status: HTTP_STATUS[error.code], headers: { "content-type": "application/json" } });
}

export function apiHandler(farm: Farm): ServerHandler {
  const handler = (async (request: Request, info: RequestInfo) => {
    if (!hostAllowed(request.headers.get("host"), farm.settings)) {
      const answer = misdirected(request.headers.get("host"));
      return new Response(answer.body, { status: answer.status, headers: { "content-type": "application/json" } });
    }
    const path = new URL(request.url).pathname;
    try {
      const checked = info.bodyRead ? request : await withBodyRead(farm, request, path, info);
      if (path.startsWith("/api/worker/")) return await handleWorkerRequest(farm, checked, info);
      if (path.startsWith(`${TRPC_ENDPOINT}/`)) return await handleTrpcRequest(farm, checked, info);
      if (path === "/api/audit/export") return await auditExport(farm, checked, info);
      // Rule: anyone (load balancers, `loom serve` waiting for its server). Says nothing but "up".
      if (path === "/api/health") return new Response(JSON.stringify({ ok: true }), { headers: { "content-type": "application/json" } });
    } catch (error) {
      if (error instanceof AppError) return jsonError(error);
      throw error;
    }
    return jsonError(new AppError("NOT_FOUND", `${path} is not an API route`));
  }) as ServerHandler;
  handler.settings = farm.settings;
  handler.admit = (caller) => admitBody(farm, caller);
  handler.plain = { prefix: "/api/worker/", handle: (request) => workerCall(farm, request) };
  return handler;
}

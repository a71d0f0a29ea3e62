/**
 * Every API request of the farm server, fetch-style: the worker protocol under /api/worker/,
 * tRPC under /api/trpc/, and the few plain routes (the audit export). The Node front
 * (node-server.ts) routes by path here; the Next.js route handlers (`next dev`), already
 * routed, call the same functions, which check the Host and the body limit again for them.
 */
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { SESSION_COOKIE } from "../auth/authenticate";
import { appRouter } from "../router";
import { resolvePrincipal, type Context } from "../router/trpc";
import { AppError, HTTP_STATUS } from "../services/errors";
import type { Farm } from "../services/farm";
import { cookieValue, hostAllowed, misdirected, sameOriginRequest } from "./request-guards";
import { auditExport } from "./audit-export";
import type { RequestInfo, ServerHandler } from "./node-server";
import { handleWorkerRequest, workerCall } from "./worker-api";
import { guardedBody } from "./guarded-body";

const TRPC_ENDPOINT = "/api/trpc";

/** The tRPC context of an HTTP request: who calls (checked once per request), from where, and the CSRF verdict. */
export function requestContext(farm: Farm, request: Request, info: RequestInfo, responseHeaders: Headers): Context {
  const credentials = {
    authorization: request.headers.get("authorization"),
    sessionCookie: cookieValue(request.headers.get("cookie"), SESSION_COOKIE),
    address: info.address,
  };
  const { principal, authError } = resolvePrincipal(farm, credentials);
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

export async function handleTrpcRequest(farm: Farm, request: Request, info: RequestInfo = { address: null }): Promise<Response> {
  const guarded = await guardedBody(farm, request);
  if (guarded instanceof Response) return guarded;
  return fetchRequestHandler({
    endpoint: TRPC_ENDPOINT,
    req: guarded,
    router: appRouter,
    createContext: ({ resHeaders }) => requestContext(farm, guarded, info, resHeaders),
  });
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
      if (path.startsWith("/api/worker/")) return await handleWorkerRequest(farm, request, info);
      if (path.startsWith(`${TRPC_ENDPOINT}/`)) return await handleTrpcRequest(farm, request, info);
      if (path === "/api/audit/export") return await auditExport(farm, request, info);
      // Rule: anyone (load balancers, `loom serve` waiting for its server). Says nothing but "up".
      if (path === "/api/health") return new Response(JSON.stringify({ ok: true }), { headers: { "content-type": "application/json" } });
    } catch (error) {
      if (error instanceof AppError) return jsonError(error);
      throw error;
    }
    return jsonError(new AppError("NOT_FOUND", `${path} is not an API route`));
  }) as ServerHandler;
  handler.settings = farm.settings;
  handler.plain = { prefix: "/api/worker/", handle: (request) => workerCall(farm, request) };
  return handler;
}

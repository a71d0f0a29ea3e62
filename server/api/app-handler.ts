/**
 * Every API request of the farm server, fetch-style: the worker protocol under /api/worker/ and
 * tRPC under /api/trpc/. The headless Node server routes by path here; the Next.js route
 * handlers, already routed, call handleWorkerRequest or handleTrpcRequest directly.
 */
import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { appRouter } from "../router";
import type { Farm } from "../services/farm";
import type { ServerHandler } from "./node-server";
import { handleWorkerRequest, MAX_BODY_BYTES, tooLarge, workerCall } from "./worker-api";

const TRPC_ENDPOINT = "/api/trpc";

export function handleTrpcRequest(farm: Farm, request: Request): Promise<Response> {
  return fetchRequestHandler({ endpoint: TRPC_ENDPOINT, req: request, router: appRouter, createContext: () => ({ farm }) });
}

export function apiHandler(farm: Farm): ServerHandler {
  const handler: ServerHandler = async (request) => {
    const path = new URL(request.url).pathname;
    if (path.startsWith("/api/worker/")) return handleWorkerRequest(farm, request);
    if (path.startsWith(`${TRPC_ENDPOINT}/`)) return handleTrpcRequest(farm, request);
    return new Response(JSON.stringify({ error: "NOT_FOUND", message: `${path} is not an API route` }), { status: 404, headers: { "content-type": "application/json" } });
  };
  // The plain Node server answers the worker protocol without web Request/Response objects.
  handler.plain = { prefix: "/api/worker/", maxBodyBytes: MAX_BODY_BYTES, tooLarge, handle: (request) => workerCall(farm, request) };
  return handler;
}

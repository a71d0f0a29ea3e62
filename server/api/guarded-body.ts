/**
 * The guards of the Node front (node-server.ts) for requests that reach an API handler some other
 * way (the Next.js route handlers of `next dev`): the Host, then the body read against the
 * route's limit while it streams. Returns the request with its body read, or the refusal.
 */
import { AppError, HTTP_STATUS } from "../services/errors";
import type { Farm } from "../services/farm";
import { bodyLimitFor, hostAllowed, misdirected, readLimited } from "./request-guards";

export async function guardedBody(farm: Farm, request: Request): Promise<Request | Response> {
  if (!hostAllowed(request.headers.get("host"), farm.settings)) {
    const answer = misdirected(request.headers.get("host"));
    return new Response(answer.body, { status: answer.status, headers: { "content-type": "application/json" } });
  }
  if (request.method === "GET" || request.method === "HEAD" || request.body === null) return request;
  const path = new URL(request.url).pathname;
  let body: Buffer;
  try {
    const reader = request.body as unknown as AsyncIterable<Uint8Array>;
    body = await readLimited(reader, bodyLimitFor(path), request.headers.get("content-length"), () => void request.body?.cancel().catch(() => undefined));
  } catch (error) {
    if (error instanceof AppError) {
      return new Response(JSON.stringify({ error: error.code, message: error.message }), { status: HTTP_STATUS[error.code], headers: { "content-type": "application/json", connection: "close" } });
    }
    throw error;
  }
  return new Request(request.url, { method: request.method, headers: request.headers, body: body as unknown as BodyInit, signal: request.signal });
}

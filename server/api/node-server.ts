/**
 * The farm server's one HTTP front (`loom serve`, with or without the web app; integration tests
 * and benchmarks). Every request is checked here before any work is done for it:
 *
 * 1. its request target must be a path (400 otherwise: an absolute URL is for proxies) and its
 *    Host one the server serves (421 otherwise: DNS rebinding);
 * 2. its body is read against the route's limit while it streams in (413 at the limit), and
 *    past a small share only from a caller the handler knows (`admit`);
 * 3. then it is answered: the worker protocol on a plain route (no web Request/Response
 *    objects: building them cost a quarter of a sync's server time), the API through a
 *    fetch-style handler, and everything else (the portal's pages) by Next.js, with the
 *    security headers and the client's real address (never one it claims itself).
 *
 * Keep-alive on, like the Next.js server. Loom serves no protocol upgrades: Next.js adds an
 * 'upgrade' listener to the server it runs in (for its development reloads), which would take
 * every request with an Upgrade header past all of the above; it is removed again, and Node
 * then answers those requests like any other.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { AppError, HTTP_STATUS } from "../context/errors";
import type { FarmSettings } from "../context/farm";
import { BODY_LIMITS, bodyLimitFor, hostAllowed, misdirected, readLimited } from "./request-guards";
import { pageSecurityHeaders, API_HEADERS } from "./security-headers";

/** What the front knows of a request that a web Request cannot carry. */
export interface RequestInfo {
  /** The client's address (the socket's; behind a trusted proxy, the proxy's last hop). */
  address: string | null;
  /** The front already checked the Host and read the body within its limits (else the handler does). */
  bodyRead?: boolean;
}

export type FetchHandler = (request: Request, info: RequestInfo) => Promise<Response>;

/** A request under a plain route: its body as text. */
export interface PlainRequest {
  method: string;
  path: string;
  authorization: string | null;
  body: string;
  address: string | null;
  /** Aborted when the client goes away before the answer (ends a long poll early). */
  signal: AbortSignal;
}

/** The answer to a plain request: a status and a JSON body. */
export interface PlainAnswer {
  status: number;
  body: string;
  /** Extra headers (a 503's Retry-After). */
  headers?: Record<string, string>;
}

/** Requests whose path starts with `prefix` are answered without web Request/Response objects. */
export interface PlainRoute {
  prefix: string;
  handle(request: PlainRequest): Promise<PlainAnswer>;
}

/** Who sends a body larger than a stranger may (BODY_LIMITS.auth). */
export interface BodyCaller {
  path: string;
  authorization: string | null;
  cookie: string | null;
  address: string | null;
}

/**
 * A fetch-style handler, optionally with a plain route the Node server answers directly, and
 * `admit`: whether a caller may send more than a stranger's share (null), or the refusal.
 */
export type ServerHandler = FetchHandler & {
  plain?: PlainRoute;
  admit?: (caller: BodyCaller) => Promise<AppError | null>;
  settings: Pick<FarmSettings, "allowedHosts" | "publicUrl">;
};

/** The portal (Next.js's request handler), for every path outside /api/. */
export type PageHandler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export interface NodeServerOptions {
  host?: string;
  port?: number;
  pages?: PageHandler;
  /** Take the client's address from X-Forwarded-For's last hop (only behind a proxy you run). */
  trustProxy?: boolean;
  /** How long a client may take to send a whole request, body included (not its answer). */
  requestTimeoutMs?: number;
}

/** Node's own default: a 16 MiB body in 5 minutes is 56 KB/s. */
const REQUEST_TIMEOUT_MS = 300_000;

export interface RunningServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

export async function startNodeServer(handler: ServerHandler, options: NodeServerOptions = {}): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  // Node checks the timeouts below this often.
  const connectionsCheckingInterval = Math.min(30_000, Math.max(100, Math.floor(requestTimeout / 4)));
  const server = createServer({ connectionsCheckingInterval }, (req, res) => void route(handler, options, host, req, res));
  server.keepAliveTimeout = 65_000;
  // A slow-loris client holds no socket for long, sending its headers or its body (408). The
  // answer has no limit: long polls and live views are long on purpose.
  server.headersTimeout = Math.min(30_000, requestTimeout);
  server.requestTimeout = requestTimeout;
  server.on("newListener", (event) => {
    if (event === "upgrade") queueMicrotask(() => server.removeAllListeners("upgrade"));
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(":") ? `[${host}]` : host === "0.0.0.0" ? "127.0.0.1" : host;
  return {
    url: `http://${shown}:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function clientAddress(req: IncomingMessage, trustProxy: boolean): string | null {
  const socket = req.socket.remoteAddress ?? null;
  if (!trustProxy) return socket;
  const forwarded = req.headers["x-forwarded-for"];
  const last = (Array.isArray(forwarded) ? forwarded.join(",") : (forwarded ?? ""))
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean)
    .at(-1);
  return last ?? socket;
}

async function route(handler: ServerHandler, options: NodeServerOptions, host: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    if (!req.url?.startsWith("/")) {
      req.resume();
      return send(res, 400, JSON.stringify({ error: "BAD_REQUEST", message: "the request target must be a path (this server is not a proxy)" }), { connection: "close" });
    }
    if (!hostAllowed(req.headers.host ?? null, handler.settings)) {
      const answer = misdirected(req.headers.host ?? null);
      req.resume();
      return send(res, answer.status, answer.body, { connection: "close" });
    }
    const address = clientAddress(req, options.trustProxy ?? false);
    const path = req.url.split("?")[0] as string;
    if (handler.plain && path.startsWith(handler.plain.prefix)) return await servePlain(handler, handler.plain, req, res, path, address);
    if (path.startsWith("/api/") || !options.pages) return await serveFetch(handler, host, req, res, path, address);
    return await servePage(options.pages, req, res, address);
  } catch (error) {
    if (error instanceof AppError) {
      // The client may still be sending: answer, then close the connection rather than read on
      // (after a moment, see lingerThenClose).
      const socket = req.socket;
      return send(res, HTTP_STATUS[error.code], JSON.stringify({ error: error.code, message: error.message }), {}, () => lingerThenClose(req, socket));
    }
    console.error("request failed", error);
    if (!res.headersSent) send(res, 500, JSON.stringify({ error: "INTERNAL", message: "internal error (the server's log has the details)" }));
    else res.destroy();
  }
}

/** How long a refused upload's further bytes are discarded before its connection is closed. */
const LINGER_MS = 1_000;

/**
 * Closing a connection while its client is still sending makes the kernel reset it, and a client
 * busy sending may then lose the answer it was sent (a 413 read as "connection reset"). So the
 * rest is read and thrown away (nothing is kept) for a moment first, as web servers do.
 */
function lingerThenClose(req: IncomingMessage, socket: Socket | null): void {
  req.resume();
  if (!socket || socket.destroyed) return;
  // Still sending after that: cut it off. Done by then: the connection may serve its next request.
  const timer = setTimeout(() => req.complete || socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
}

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}, after?: () => void): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(status, { ...API_HEADERS, "content-type": "application/json", "content-length": String(Buffer.byteLength(body)), ...headers });
  res.end(body, after);
}

function readBody(handler: ServerHandler, req: IncomingMessage, path: string, address: string | null): Promise<Buffer> {
  if (req.method === "GET" || req.method === "HEAD") return Promise.resolve(Buffer.alloc(0));
  const length = req.headers["content-length"];
  const admit = handler.admit;
  const caller = (): BodyCaller => ({ path, authorization: req.headers.authorization ?? null, cookie: req.headers.cookie ?? null, address });
  const stranger = admit ? { bytes: BODY_LIMITS.auth, admit: () => admit(caller()) } : undefined;
  return readLimited(req, bodyLimitFor(path), typeof length === "string" ? length : null, () => req.pause(), stranger);
}

async function servePlain(handler: ServerHandler, route: PlainRoute, req: IncomingMessage, res: ServerResponse, path: string, address: string | null): Promise<void> {
  const body = await readBody(handler, req, path, address);
  const controller = abortOnEarlyClose(res);
  const answer = await route.handle({ method: req.method ?? "GET", path, authorization: req.headers.authorization ?? null, body: body.toString("utf8"), address, signal: controller.signal });
  send(res, answer.status, answer.body, answer.headers);
}

/** Only a client that went away before the answer aborts (building the abort reason is not free). */
function abortOnEarlyClose(res: ServerResponse): AbortController {
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller;
}

async function serveFetch(handler: ServerHandler, host: string, req: IncomingMessage, res: ServerResponse, path: string, address: string | null): Promise<void> {
  const body = await readBody(handler, req, path, address);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const controller = abortOnEarlyClose(res);
  const request = new Request(`http://${req.headers.host ?? host}${req.url ?? "/"}`, {
    method: req.method ?? "GET",
    headers,
    ...(body.length > 0 ? { body: body as unknown as BodyInit } : {}),
    signal: controller.signal,
  });
  const response = await handler(request, { address, bodyRead: true });
  const out = new Headers(response.headers);
  for (const [name, value] of Object.entries(API_HEADERS)) if (!out.has(name)) out.set(name, value);
  // Set-Cookie must stay separate headers (Headers joins others with commas).
  const cookies = out.getSetCookie();
  out.delete("set-cookie");
  res.writeHead(response.status, [...[...out.entries()].flat(), ...cookies.flatMap((c) => ["set-cookie", c])]);
  if (!response.body) return void res.end();
  await pipeAnswer(response.body, res);
}

/**
 * Writes a streamed answer (a live view, an export) as the client reads it. A client that goes
 * away, even while the server waits for it to read on, cancels the stream: nothing is left
 * waiting for a 'drain' that will never come.
 */
async function pipeAnswer(body: ReadableStream<Uint8Array>, res: ServerResponse): Promise<void> {
  const reader = body.getReader();
  let closed = false;
  let wake: (() => void) | null = null;
  const onClose = () => {
    closed = true;
    // Ends a read waiting for the stream's next chunk, and the stream itself.
    void reader.cancel().catch(() => undefined);
    wake?.();
  };
  res.once("close", onClose);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done || closed) break;
      if (!res.write(value) && !closed) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          res.once("drain", resolve);
        });
      }
      wake = null;
    }
    if (!closed) res.end();
  } finally {
    res.off("close", onClose);
  }
}

/** Pages are read, never posted to (the portal changes things through /api/trpc only). */
async function servePage(pages: PageHandler, req: IncomingMessage, res: ServerResponse, address: string | null): Promise<void> {
  if (req.method !== "GET" && req.method !== "HEAD") {
    req.resume();
    return send(res, 405, JSON.stringify({ error: "METHOD_NOT_ALLOWED", message: "pages accept GET and HEAD only" }), { allow: "GET, HEAD", connection: "close" });
  }
  // Next.js reads the client's address and the script nonce from request headers: set them from
  // what this server knows, never from what the client sent.
  for (const name of Object.keys(req.headers)) if (name.startsWith("x-forwarded-") || name === "forwarded" || name === "x-real-ip") delete req.headers[name];
  if (address) req.headers["x-forwarded-for"] = address;
  const nonce = randomBytes(16).toString("base64");
  const headers = pageSecurityHeaders(nonce);
  req.headers["content-security-policy"] = headers["content-security-policy"];
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  await pages(req, res);
}

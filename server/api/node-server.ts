/**
 * A plain Node HTTP server for fetch-style handlers: the farm's API without Next.js (`loom serve
 * --headless`, integration tests and benchmarks, which need a real server that starts in
 * milliseconds). Keep-alive on, like the Next.js server.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type FetchHandler = (request: Request) => Promise<Response>;

/** A request under a plain route: its body as text. */
export interface PlainRequest {
  method: string;
  path: string;
  authorization: string | null;
  body: string;
  /** Aborted when the client goes away before the answer (ends a long poll early). */
  signal: AbortSignal;
}

/** The answer to a plain request: a status and a JSON body. */
export interface PlainAnswer {
  status: number;
  body: string;
}

/**
 * Requests whose path starts with `prefix` are answered without web Request/Response objects:
 * building them cost a quarter of a worker sync's server time. The answer is JSON text.
 */
export interface PlainRoute {
  prefix: string;
  maxBodyBytes: number;
  /** The answer to a body over maxBodyBytes (not read). */
  tooLarge(): PlainAnswer;
  handle(request: PlainRequest): Promise<PlainAnswer>;
}

/** A fetch-style handler, optionally with a plain route the Node server answers directly. */
export type ServerHandler = FetchHandler & { plain?: PlainRoute };

export interface RunningServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

export async function startNodeServer(handler: ServerHandler, options: { host?: string; port?: number } = {}): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  const plain = handler.plain;
  const server = createServer((req, res) => void (plain && req.url?.startsWith(plain.prefix) ? servePlain(plain, req, res) : serve(handler, host, req, res)));
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function servePlain(route: PlainRoute, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    let answer: PlainAnswer;
    if (Number(req.headers["content-length"] ?? "0") > route.maxBodyBytes) answer = route.tooLarge();
    else {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const controller = abortOnEarlyClose(res);
      const path = (req.url ?? "/").split("?")[0] as string;
      answer = await route.handle({ method: req.method ?? "GET", path, authorization: req.headers.authorization ?? null, body: Buffer.concat(chunks).toString("utf8"), signal: controller.signal });
    }
    res.writeHead(answer.status, { "content-type": "application/json", "content-length": Buffer.byteLength(answer.body) });
    res.end(answer.body);
  } catch (error) {
    if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: "INTERNAL", message: (error as Error).message }));
  }
}

/** Only a client that went away before the answer aborts (building the abort reason is not free). */
function abortOnEarlyClose(res: ServerResponse): AbortController {
  const controller = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller;
}

async function serve(handler: FetchHandler, host: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const chunks: Buffer[] = [];
    if (req.method !== "GET" && req.method !== "HEAD") for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (Array.isArray(value)) for (const v of value) headers.append(name, v);
      else if (value !== undefined) headers.set(name, value);
    }
    const controller = abortOnEarlyClose(res);
    const request = new Request(`http://${req.headers.host ?? host}${req.url ?? "/"}`, {
      method: req.method ?? "GET",
      headers,
      ...(chunks.length > 0 ? { body: Buffer.concat(chunks) } : {}),
      signal: controller.signal,
    });
    const response = await handler(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) return void res.end();
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      if (!res.write(chunk)) await new Promise((resolve) => res.once("drain", resolve));
    }
    res.end();
  } catch (error) {
    if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: "INTERNAL", message: (error as Error).message }));
  }
}

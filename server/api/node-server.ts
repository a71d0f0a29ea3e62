/**
 * A plain Node HTTP server for fetch-style handlers: the farm's API without Next.js (`loom serve
 * --headless`, integration tests and benchmarks, which need a real server that starts in
 * milliseconds). Keep-alive on, like the Next.js server.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type FetchHandler = (request: Request) => Promise<Response>;

export interface RunningServer {
  url: string;
  server: Server;
  close(): Promise<void>;
}

export async function startNodeServer(handler: FetchHandler, options: { host?: string; port?: number } = {}): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  const server = createServer((req, res) => void serve(handler, host, req, res));
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

async function serve(handler: FetchHandler, host: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const chunks: Buffer[] = [];
    if (req.method !== "GET" && req.method !== "HEAD") for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (Array.isArray(value)) for (const v of value) headers.append(name, v);
      else if (value !== undefined) headers.set(name, value);
    }
    const controller = new AbortController();
    // Only a client that went away before the answer aborts (building the abort reason is not free).
    res.on("close", () => {
      if (!res.writableFinished) controller.abort();
    });
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

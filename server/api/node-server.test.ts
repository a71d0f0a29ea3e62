/**
 * The HTTP front itself, over real sockets: request targets that are not a path, Host values it
 * could not make a URL of, Upgrade requests (which Node hands to any 'upgrade' listener, and
 * Next.js adds one), bodies trickled in forever, and streamed answers whose client went away.
 */
import { connect } from "node:net";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { httpFarm, raw } from "../auth/http-test-support";
import { startNodeServer, type PageHandler, type ServerHandler } from "./node-server";

const SETTINGS = { allowedHosts: [], publicUrl: null };

/** A fetch handler answering `answer(request)`, the way apiHandler plugs into the front. */
function handlerOf(answer: (request: Request) => Promise<Response> | Response): ServerHandler {
  return Object.assign(async (request: Request) => answer(request), { settings: SETTINGS });
}

async function serve(handler: ServerHandler, options: Parameters<typeof startNodeServer>[1] = {}): Promise<{ url: string }> {
  const server = await startNodeServer(handler, options);
  onTestFinished(() => server.close());
  return { url: server.url };
}

describe("the request target", () => {
  it.each(["http://evil.example/api/health", "http://127.0.0.1/api/trpc/auth.me", "*"])("%s (not a path) is refused with 400 before any route sees it", async (target) => {
    const h = await httpFarm();
    const answer = await raw(h.url, target, { headers: { host: "127.0.0.1" } });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ error: "BAD_REQUEST", message: expect.stringContaining("path") });
  });

  it("is never handed to the pages either (Next.js answers an absolute URL with a redirect to its host)", async () => {
    const pages = vi.fn<PageHandler>(async (_req, res) => void res.end("page"));
    const s = await serve(
      handlerOf(() => new Response("api")),
      { pages },
    );
    expect((await raw(s.url, "http://evil.example/jobs", { headers: { host: "127.0.0.1" } })).status).toBe(400);
    expect(pages).not.toHaveBeenCalled();
    expect((await raw(s.url, "/jobs", { headers: { host: "127.0.0.1" } })).body).toBe("page");
  });
});

describe("Host values", () => {
  it.each(["[::1]evil.example", "localhost:abc", "127.0.0.1:99999", "[::1"])("%s is 421, not an internal error", async (host) => {
    const h = await httpFarm();
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      for (const path of ["/api/trpc/auth.me", "/api/health", "/api/worker/sync"]) {
        const answer = await raw(h.url, path, { headers: { host } });
        expect(answer.status, path).toBe(421);
      }
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
    }
  });
});

describe("Upgrade requests", () => {
  it("go through the Host check and the routes like any other, even once a page handler listens for upgrades as Next.js does", async () => {
    const upgrades = vi.fn();
    const pages: PageHandler = async (req, res) => {
      (req.socket as unknown as { server: NodeJS.EventEmitter }).server.on("upgrade", upgrades);
      res.end("page");
    };
    const s = await serve(
      handlerOf(() => Response.json({ ok: true })),
      { pages },
    );
    expect((await raw(s.url, "/jobs", { headers: { host: "127.0.0.1" } })).body).toBe("page");
    const upgrade = { connection: "Upgrade", upgrade: "websocket", "sec-websocket-version": "13", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==" };
    expect((await raw(s.url, "/zz-nothing", { headers: { host: "evil.example", ...upgrade } })).status).toBe(421);
    expect((await raw(s.url, "/api/health", { headers: { host: "127.0.0.1", ...upgrade } })).body).toBe('{"ok":true}');
    expect(upgrades).not.toHaveBeenCalled();
  });
});

describe("slow clients", () => {
  it("a body trickled in for longer than the request timeout is cut off with 408; an answer slower than that is not", async () => {
    const handler = handlerOf(async (request) => {
      if (request.method === "GET") await new Promise((resolve) => setTimeout(resolve, 1_500));
      return new Response(request.method === "GET" ? "slow answer" : await request.text());
    });
    const s = await serve(handler, { requestTimeoutMs: 500 });
    const port = Number(new URL(s.url).port);
    const status = await new Promise<string>((resolve) => {
      const socket = connect(port, "127.0.0.1", () => socket.write("POST /api/upload HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n"));
      const drip = setInterval(() => socket.writable && socket.write("1\r\nx\r\n"), 100);
      let answer = "";
      socket.on("data", (chunk) => (answer += chunk.toString()));
      socket.on("close", () => {
        clearInterval(drip);
        resolve(answer.split("\r\n")[0]!);
      });
      setTimeout(() => socket.destroy(), 10_000).unref();
    });
    expect(status).toBe("HTTP/1.1 408 Request Timeout");
    expect(await (await fetch(`${s.url}/api/slow`)).text()).toBe("slow answer");
  });

  it("a streamed answer is cancelled when its client goes away while the server waits for it to read", async () => {
    let pulls = 0;
    let cancelled = false;
    const handler = handlerOf(
      () =>
        new Response(
          new ReadableStream<Uint8Array>({
            pull(controller) {
              pulls++;
              controller.enqueue(new Uint8Array(1024 * 1024));
            },
            cancel() {
              cancelled = true;
            },
          }),
        ),
    );
    const s = await serve(handler);
    const socket = connect(Number(new URL(s.url).port), "127.0.0.1", () => socket.write("GET /api/stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"));
    socket.pause();
    await vi.waitFor(() => expect(pulls).toBeGreaterThan(2));
    socket.destroy();
    await vi.waitFor(() => expect(cancelled).toBe(true), { timeout: 5_000 });
  });
});

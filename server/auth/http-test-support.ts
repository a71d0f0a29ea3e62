/**
 * Test support for the access layer over real HTTP: a farm with a controllable clock behind the
 * real Node front (startNodeServer(apiHandler(farm))), people with real passwords, and a small
 * tRPC-over-fetch client that keeps its session cookie the way a browser would (Origin included),
 * and raw requests for what fetch will not send (a Host or a request target of our choosing).
 */
import { request } from "node:http";
import { onTestFinished } from "vitest";
import type { Role } from "../../lib/farm/access";
import { apiHandler } from "../api/app-handler";
import { startNodeServer } from "../api/node-server";
import { testStore } from "../store/engines-test-support";
import { SYSTEM_ACTOR } from "../services/audit";
import { createFarm, type Farm, type FarmSettings } from "../context/farm";
import { createPool } from "../services/pools";
import { issueToken } from "./access-tokens";
import { createUser } from "./accounts";
import { SESSION_COOKIE } from "./authenticate";

export const PASSWORD = "correct horse battery staple";

export interface HttpFarm {
  farm: Farm;
  clock: { now: number };
  url: string;
  poolToken: string;
}

export async function httpFarm(settings: Partial<FarmSettings> = {}): Promise<HttpFarm> {
  const store = await testStore();
  const clock = { now: 1_700_000_000_000 };
  const farm = createFarm(store, { settings, now: () => clock.now });
  const { token } = await createPool(farm, { name: "default" }, SYSTEM_ACTOR);
  const server = await startNodeServer(apiHandler(farm));
  onTestFinished(async () => {
    await server.close();
  });
  return { farm, clock, url: server.url, poolToken: token };
}

/** A person who signs in with PASSWORD. */
export async function person(farm: Farm, name: string, role: Role): Promise<string> {
  return (await createUser(farm, SYSTEM_ACTOR, { name, role, password: PASSWORD })).id;
}

/** A personal access token of `userId` (its owner's role is the ceiling, as the tokens page makes them). */
export async function tokenOf(farm: Farm, userId: string, role: Role, scope: "read" | "submit" | "admin", expiresInDays = 30): Promise<{ token: string; id: string }> {
  const issued = await farm.store.transaction((tx) => issueToken(tx, farm, SYSTEM_ACTOR, { userId, role, name: `${scope} token`, scope, expiresInDays }));
  return { token: issued.token, id: issued.view.id };
}

export interface Answer<T = unknown> {
  status: number;
  data: T;
  error: { message: string; code: string; data?: Record<string, unknown> } | null;
  headers: Headers;
  text: string;
}

export interface ClientOptions {
  /** Sent as Authorization: Bearer. */
  token?: string;
  /** The Origin a browser would send (the server's own by default; null: none). */
  origin?: string | null;
  cookie?: string | null;
  headers?: Record<string, string>;
}

/** A tRPC client over fetch: queries as GET, mutations as POST, the session cookie kept between calls. */
export class Client {
  cookie: string | null;
  constructor(
    readonly url: string,
    private readonly options: ClientOptions = {},
  ) {
    this.cookie = options.cookie ?? null;
  }

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    const origin = this.options.origin === undefined ? this.url : this.options.origin;
    return {
      ...(origin ? { origin } : {}),
      ...(this.options.token ? { authorization: `Bearer ${this.options.token}` } : {}),
      ...(this.cookie ? { cookie: `${SESSION_COOKIE}=${this.cookie}` } : {}),
      ...this.options.headers,
      ...extra,
    };
  }

  private async answer<T>(response: Response): Promise<Answer<T>> {
    for (const line of response.headers.getSetCookie()) {
      const match = new RegExp(`^${SESSION_COOKIE}=([^;]*)`).exec(line);
      if (match) this.cookie = match[1] ? decodeURIComponent(match[1]) : null;
    }
    const text = await response.text();
    let body: { result?: { data: T }; error?: Answer["error"] } = {};
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      // not JSON: the test reads `text`
    }
    return { status: response.status, data: body.result?.data as T, error: body.error ?? null, headers: response.headers, text };
  }

  async query<T = unknown>(path: string, input?: unknown): Promise<Answer<T>> {
    const query = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`;
    return this.answer<T>(await fetch(`${this.url}/api/trpc/${path}${query}`, { headers: this.headers() }));
  }

  async mutation<T = unknown>(path: string, input?: unknown): Promise<Answer<T>> {
    const body = input === undefined ? undefined : JSON.stringify(input);
    return this.answer<T>(await fetch(`${this.url}/api/trpc/${path}`, { method: "POST", headers: this.headers({ "content-type": "application/json" }), ...(body ? { body } : {}) }));
  }

  /** Opens a subscription as the browser's EventSource does (GET, text/event-stream). */
  async subscribe(path: string, input?: unknown, signal?: AbortSignal): Promise<EventStream> {
    const query = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`;
    const response = await fetch(`${this.url}/api/trpc/${path}${query}`, { headers: this.headers({ accept: "text/event-stream" }), ...(signal ? { signal } : {}) });
    return new EventStream(response);
  }

  async signIn(name: string, password = PASSWORD): Promise<Answer> {
    return this.mutation("auth.signIn", { name, password });
  }
}

export interface SseEvent {
  event: string;
  data: string;
}

/** The events of a text/event-stream answer, read one at a time (pings skipped). */
export class EventStream {
  private buffer = "";
  private readonly reader: ReadableStreamDefaultReader<Uint8Array> | null;
  private readonly decoder = new TextDecoder();

  constructor(readonly response: Response) {
    this.reader = response.body?.getReader() ?? null;
  }

  get status(): number {
    return this.response.status;
  }

  /** The next event other than a ping, or null when the stream ended. */
  async next(): Promise<SseEvent | null> {
    for (;;) {
      const end = this.buffer.indexOf("\n\n");
      if (end !== -1) {
        const block = this.buffer.slice(0, end);
        this.buffer = this.buffer.slice(end + 2);
        const event: SseEvent = { event: "message", data: "" };
        for (const line of block.split("\n")) {
          if (line.startsWith("event:")) event.event = line.slice(6).trim();
          else if (line.startsWith("data:")) event.data += line.slice(5).trim();
        }
        if (event.event === "ping" || block.startsWith(":")) continue;
        return event;
      }
      if (!this.reader) return null;
      const { done, value } = await this.reader.read();
      if (done) return null;
      this.buffer += this.decoder.decode(value, { stream: true });
    }
  }

  async close(): Promise<void> {
    await this.reader?.cancel().catch(() => undefined);
  }
}

export interface RawAnswer {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

/** A request with exactly these headers and this request target (fetch sends neither a Host nor a target of our choosing). */
export function raw(url: string, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawAnswer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: target.hostname, port: target.port, path, method: options.method ?? "GET", headers: options.headers ?? {} }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
    });
    req.on("error", reject);
    req.end(options.body);
  });
}

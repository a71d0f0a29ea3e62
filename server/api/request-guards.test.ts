/**
 * The request guards, as functions and over real HTTP: the Host check (421 on every route for a
 * name the server does not serve: DNS rebinding), the CSRF check of mutations, body limits
 * enforced while a chunked body streams in (a 600 MB upload is cut off at the limit and the
 * server's memory barely moves), and answers that never carry a stack trace or a file path.
 */
import { describe, expect, it, vi } from "vitest";
import { Client, httpFarm, person, raw, tokenOf } from "../auth/http-test-support";
import { serverEnv } from "../env";
import { AppError } from "../context/errors";
import { settingsFromEnv } from "../context/farm-settings";
import { BODY_LIMITS, bodyLimitFor, cookieValue, hostAllowed, hostName, readLimited, sameOriginRequest } from "./request-guards";

const SETTINGS = { allowedHosts: ["farm.studio.example"], publicUrl: null };

describe("hostAllowed", () => {
  it.each([
    ["127.0.0.1:3000", true],
    ["10.1.2.3", true],
    ["[::1]:3000", true],
    ["localhost:3000", true],
    ["LOCALHOST", true],
    ["render.localhost", true],
    ["farm.studio.example", true],
    ["Farm.Studio.Example:8080", true],
    ["evil.example", false],
    ["localhost.evil.example", false],
    ["127.0.0.1.evil.example", false],
    ["farm.studio.example.evil.example", false],
    ["", false],
    ["bad host", false],
    [null, false],
    // The name must be the whole Host: what follows it is a port and nothing else.
    ["[::1]evil.example", false],
    ["[::1]:3000evil", false],
    ["localhost:abc", false],
    ["127.0.0.1:99999", false],
    ["localhost:3000:80", false],
    ["[::1", false],
    ["[evil.example]", false],
    // A trailing dot names the same host (an absolute DNS name).
    ["localhost.:3000", true],
    ["farm.studio.example.", true],
    ["evil.example.", false],
  ] as const)("%s: %s", (host, allowed) => {
    expect(hostAllowed(host, SETTINGS)).toBe(allowed);
  });

  it("serves the public URL's host", () => {
    expect(hostAllowed("loom.example.org", { allowedHosts: [], publicUrl: "https://loom.example.org/" })).toBe(true);
    expect(hostAllowed("loom.example.org", { allowedHosts: [], publicUrl: null })).toBe(false);
  });

  it("reads the name part of a Host", () => {
    expect(hostName("[::1]:3000")).toBe("::1");
    expect(hostName("Farm.Example:80")).toBe("farm.example");
    expect(hostName("farm.example")).toBe("farm.example");
    expect(hostName("Farm.Example.:80")).toBe("farm.example");
    expect(hostName("[::1]junk")).toBeNull();
  });
});

describe("sameOriginRequest", () => {
  const headers = (h: Record<string, string>) => new Headers(h);
  it.each([
    ["its own Origin", { host: "127.0.0.1:3000", origin: "http://127.0.0.1:3000" }, true],
    ["its own Origin, differently cased", { host: "LOCALHOST:3000", origin: "http://localhost:3000" }, true],
    ["a foreign Origin", { host: "127.0.0.1:3000", origin: "https://evil.example" }, false],
    ["a foreign port", { host: "127.0.0.1:3000", origin: "http://127.0.0.1:3001" }, false],
    ["Origin null (a sandboxed frame)", { host: "127.0.0.1:3000", origin: "null" }, false],
    ["a garbled Origin", { host: "127.0.0.1:3000", origin: "::nope" }, false],
    ["same-origin Sec-Fetch-Site", { host: "h", "sec-fetch-site": "same-origin", cookie: "loom_session=x" }, true],
    ["cross-site Sec-Fetch-Site", { host: "h", "sec-fetch-site": "cross-site", cookie: "loom_session=x" }, false],
    ["same-site Sec-Fetch-Site (a sibling subdomain)", { host: "h", "sec-fetch-site": "same-site", cookie: "loom_session=x" }, false],
    ["no Origin and no cookie (a script)", { host: "h", authorization: "Bearer loom_pat_x" }, true],
    ["no Origin but the session cookie", { host: "h", cookie: "a=b; loom_session=x" }, false],
    ["a Bearer token beside the session cookie (a script with a browser's cookie jar)", { host: "h", authorization: "Bearer loom_pat_x", cookie: "loom_session=x" }, true],
    ["no Origin but the session cookie, spaced", { host: "h", cookie: "a=b; loom_session =x" }, false],
  ] as const)("%s: %s", (_what, h, same) => {
    expect(sameOriginRequest(headers(h), { publicUrl: null })).toBe(same);
  });

  it("accepts the public URL's origin behind a proxy", () => {
    expect(sameOriginRequest(headers({ host: "10.0.0.5:3000", origin: "https://loom.example.org" }), { publicUrl: "https://loom.example.org" })).toBe(true);
    expect(sameOriginRequest(headers({ host: "10.0.0.5:3000", origin: "http://loom.example.org" }), { publicUrl: "https://loom.example.org" })).toBe(false);
  });
});

describe("cookieValue", () => {
  it.each([
    ["loom_session=abc", "abc"],
    ["a=1; loom_session=abc; b=2", "abc"],
    ["  loom_session = abc  ", "abc"],
    ["x_loom_session=abc", null],
    ["loom_session_old=abc", null],
    ["loom_session=a%3Db", "a=b"],
    // Badly encoded: kept as sent (it matches no session), never an exception.
    ["loom_session=%E0%A4%A", "%E0%A4%A"],
    ["", null],
    [null, null],
  ] as const)("%s → %s", (header, value) => {
    expect(cookieValue(header, "loom_session")).toBe(value);
  });
});

describe("readLimited and the limits", () => {
  async function* chunks(sizes: number[], pulled: { n: number }) {
    for (const size of sizes) {
      pulled.n++;
      yield new Uint8Array(size);
    }
  }

  it("reads a body within the limit", async () => {
    const pulled = { n: 0 };
    expect((await readLimited(chunks([3, 4], pulled), 7, null)).length).toBe(7);
  });

  it("refuses past the limit without reading on, whatever no Content-Length said", async () => {
    const pulled = { n: 0 };
    const cancel = vi.fn();
    const refused = await readLimited(chunks([4, 4, 4, 4, 4], pulled), 7, null, cancel).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
    expect(pulled.n).toBe(2);
    expect(cancel).toHaveBeenCalledOnce();
  });

  it("refuses a declared length over the limit before reading anything", async () => {
    const pulled = { n: 0 };
    await expect(readLimited(chunks([1], pulled), 7, "8")).rejects.toMatchObject({ code: "PAYLOAD_TOO_LARGE", message: expect.stringContaining("nothing was read past that") });
    expect(pulled.n).toBe(0);
  });

  it("refuses a body longer than it declared", async () => {
    await expect(readLimited(chunks([5, 5], { n: 0 }), 7, "3")).rejects.toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
  });

  it("asks once whether the caller may send more than a stranger's share, when the body passes it", async () => {
    const admit = vi.fn(() => null);
    expect((await readLimited(chunks([3, 3], { n: 0 }), 20, null, undefined, { bytes: 4, admit })).length).toBe(6);
    expect(admit).toHaveBeenCalledOnce();
    const unasked = vi.fn(() => null);
    await readLimited(chunks([2, 2], { n: 0 }), 20, null, undefined, { bytes: 4, admit: unasked });
    expect(unasked).not.toHaveBeenCalled();
  });

  it("refuses a stranger's body as soon as it passes their share, with the caller's refusal", async () => {
    const pulled = { n: 0 };
    const cancel = vi.fn();
    const refusal = new AppError("UNAUTHORIZED", "sign in first");
    await expect(readLimited(chunks([3, 3, 3, 3, 3], pulled), 20, null, cancel, { bytes: 4, admit: () => refusal })).rejects.toBe(refusal);
    expect(pulled.n).toBe(2);
    expect(cancel).toHaveBeenCalledOnce();
    // A declared length past the share is decided before anything is read.
    const before = { n: 0 };
    await expect(readLimited(chunks([3], before), 20, "5", undefined, { bytes: 4, admit: () => refusal })).rejects.toBe(refusal);
    expect(before.n).toBe(0);
  });

  it("gives sign-in and token calls the small limit, even batched", () => {
    expect(bodyLimitFor("/api/trpc/auth.signIn")).toBe(BODY_LIMITS.auth);
    expect(bodyLimitFor("/api/trpc/tokens.create")).toBe(BODY_LIMITS.auth);
    expect(bodyLimitFor("/api/trpc/auth.signIn,jobs.submit")).toBe(BODY_LIMITS.auth);
    // Wherever in the batch: the smallest limit of the procedures it names.
    expect(bodyLimitFor("/api/trpc/jobs.preview,auth.signIn")).toBe(BODY_LIMITS.auth);
    expect(bodyLimitFor("/api/trpc/jobs.submit%2Cauth.signIn")).toBe(BODY_LIMITS.auth);
    expect(bodyLimitFor("/api/trpc/jobs.submit")).toBe(BODY_LIMITS.trpc);
    expect(bodyLimitFor("/api/worker/sync")).toBe(BODY_LIMITS.worker);
  });
});

const ROUTES: Array<[string, string]> = [
  ["GET", "/api/health"],
  ["GET", "/api/trpc/auth.me"],
  ["POST", "/api/trpc/auth.signIn"],
  ["POST", "/api/trpc/jobs.submit"],
  ["GET", "/api/trpc/jobs.onChange"],
  ["POST", "/api/worker/register"],
  ["POST", "/api/worker/sync"],
  ["GET", "/api/audit/export"],
  ["GET", "/api/nothing-here"],
  ["GET", "/"],
  ["GET", "/jobs"],
];

describe("the Host check over HTTP", () => {
  it.each(ROUTES)("%s %s with Host: evil.example is 421", async (method, path) => {
    const h = await httpFarm();
    const answer = await raw(h.url, path, { method, headers: { host: "evil.example", "content-type": "application/json" }, body: method === "POST" ? "{}" : undefined });
    expect(answer.status).toBe(421);
    expect(JSON.parse(answer.body)).toMatchObject({ error: "MISDIRECTED", message: expect.stringContaining("LOOM_ALLOWED_HOSTS") });
  });

  it("passes IP addresses, localhost and the names LOOM_ALLOWED_HOSTS gives", async () => {
    const fromEnv = settingsFromEnv({ ...serverEnv(), LOOM_ALLOWED_HOSTS: " Farm.Studio.Example , render-01" }, "/tmp/unused");
    expect(fromEnv.allowedHosts).toEqual(["farm.studio.example", "render-01"]);
    const h = await httpFarm({ allowedHosts: fromEnv.allowedHosts });
    const port = new URL(h.url).port;
    for (const host of [`127.0.0.1:${port}`, `[::1]:${port}`, `localhost:${port}`, "192.168.1.20", "farm.studio.example", `FARM.studio.example:${port}`, "render-01"]) {
      expect((await raw(h.url, "/api/health", { headers: { host } })).status, host).toBe(200);
      expect((await raw(h.url, "/api/trpc/auth.me", { headers: { host } })).status, host).toBe(200);
    }
    expect((await raw(h.url, "/api/health", { headers: { host: "other.studio.example" } })).status).toBe(421);
  });
});

describe("the CSRF check over HTTP", () => {
  it("refuses a mutation carrying the session cookie from a foreign Origin, and passes the portal's own", async () => {
    const h = await httpFarm();
    await person(h.farm, "root", "admin");
    const browser = new Client(h.url);
    await browser.signIn("root");
    const forged = new Client(h.url, { cookie: browser.cookie, origin: "https://evil.example" });
    const refused = await forged.mutation("pools.create", { name: "forged" });
    expect(refused.status).toBe(403);
    expect(refused.error?.message).toBe("cross-site request refused: a browser may change things only from the portal's own pages");
    const noOrigin = new Client(h.url, { cookie: browser.cookie, origin: null });
    expect((await noOrigin.mutation("pools.create", { name: "forged" })).status).toBe(403);
    const crossSite = new Client(h.url, { cookie: browser.cookie, origin: null, headers: { "sec-fetch-site": "cross-site" } });
    expect((await crossSite.mutation("pools.create", { name: "forged" })).status).toBe(403);
    expect((await browser.mutation("pools.create", { name: "real" })).status).toBe(200);
    const pools = await browser.query<Array<{ name: string }>>("pools.list");
    expect(pools.data.map((p) => p.name).sort()).toEqual(["default", "real"]);
  });

  it("never changes anything on a GET (a link or a top-level navigation carries the cookie)", async () => {
    const h = await httpFarm();
    await person(h.farm, "root", "admin");
    const browser = new Client(h.url);
    await browser.signIn("root");
    const answer = await raw(h.url, `/api/trpc/pools.create?input=${encodeURIComponent(JSON.stringify({ name: "by-link" }))}`, {
      headers: { host: "127.0.0.1", cookie: `loom_session=${browser.cookie}` },
    });
    expect(answer.status).toBe(405);
    expect((await browser.query<Array<{ name: string }>>("pools.list")).data.map((p) => p.name)).toEqual(["default"]);
  });

  it("refuses a sign-in posted from a foreign page (login CSRF)", async () => {
    const h = await httpFarm();
    await person(h.farm, "root", "admin");
    const answer = await new Client(h.url, { origin: "https://evil.example" }).signIn("root");
    expect(answer.status).toBe(403);
    expect(answer.headers.getSetCookie()).toEqual([]);
  });

  it("passes a Bearer-token call that sends no Origin", async () => {
    const h = await httpFarm();
    const id = await person(h.farm, "root", "admin");
    const script = new Client(h.url, { token: (await tokenOf(h.farm, id, "admin", "admin")).token, origin: null });
    expect((await script.mutation("pools.create", { name: "from-ci" })).status).toBe(200);
  });
});

describe("answers carry no stack trace and no file path", () => {
  const leaks = (text: string) => [/\bat [\w.<>]+ \(/, /\/work\//, /node_modules/, /\.ts\b/, /\.js:\d+/, /better-sqlite3/, /database connection/i].filter((p) => p.test(text)).map(String);

  it("an internal error (the store closed under a query) is a bare 500 on tRPC and the worker API", async () => {
    const h = await httpFarm();
    const id = await person(h.farm, "root", "admin");
    const token = (await tokenOf(h.farm, id, "admin", "admin")).token;
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    await h.farm.store.close();
    try {
      const anonymous = await new Client(h.url).query("auth.me");
      const withToken = await new Client(h.url, { token, origin: null }).query("jobs.list", {});
      const worker = await raw(h.url, "/api/worker/register", {
        method: "POST",
        headers: { host: "127.0.0.1", authorization: `Bearer ${h.poolToken}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "w", capabilities: { amounts: {}, attributes: {} } }),
      });
      for (const answer of [anonymous, { status: withToken.status, text: withToken.text }, { status: worker.status, text: worker.body }]) {
        expect(answer.status).toBe(500);
        expect(leaks(answer.text), answer.text).toEqual([]);
      }
      expect(anonymous.error?.message).toBe("internal error (the server's log has the details)");
    } finally {
      errors.mockRestore();
    }
  });

  it("bad input, unknown procedures and malformed JSON say what is wrong, and nothing of the server's files", async () => {
    const h = await httpFarm();
    const client = new Client(h.url);
    const answers = [
      await client.query("auth.setupStatus", { token: 42 }),
      await client.query("no.such.procedure"),
      await raw(h.url, "/api/trpc/auth.signIn", { method: "POST", headers: { host: "127.0.0.1", origin: h.url, "content-type": "application/json" }, body: "{not json" }).then((r) => ({
        status: r.status,
        text: r.body,
      })),
      await raw(h.url, "/api/worker/sync", { method: "POST", headers: { host: "127.0.0.1", authorization: "Bearer nope" }, body: "{not json" }).then((r) => ({ status: r.status, text: r.body })),
    ];
    for (const answer of answers) {
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(leaks(answer.text), answer.text).toEqual([]);
    }
  });
});

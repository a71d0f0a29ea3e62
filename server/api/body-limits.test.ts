/**
 * Body limits over real HTTP: enforced while a chunked body streams in (a 600 MB upload is cut off
 * at its route's limit and the server's memory barely moves); a caller the server does not know
 * (no credential, or one it refuses) is cut off at the small limit whatever the route, so forty
 * anonymous connections cannot make it hold forty bodies of 16 MiB; a batch gets the smallest
 * limit of the procedures it names; and a batch of many calls is refused whole.
 */
import { request } from "node:http";
import { describe, expect, it } from "vitest";
import { Client, httpFarm, person, raw, tokenOf, type HttpFarm } from "../auth/http-test-support";
import { rawOf } from "../store/store-test-support";
import { testEngine } from "../store/engines-test-support";
import { BODY_LIMITS, MAX_BATCH_CALLS } from "./request-guards";

/** Streams `total` bytes as a chunked body (no Content-Length) from one reused buffer, until the server answers or closes. */
function chunkedUpload(url: string, path: string, total: number, headers: Record<string, string>, onProgress: () => void): Promise<{ status: number | null; body: string; sent: number }> {
  const target = new URL(url);
  const chunk = Buffer.alloc(256 * 1024, 0x61);
  return new Promise((resolve) => {
    let sent = 0;
    let status: number | null = null;
    let body = "";
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      resolve({ status, body, sent });
    };
    const req = request({ host: target.hostname, port: target.port, path, method: "POST", headers: { "content-type": "application/json", "transfer-encoding": "chunked", ...headers } }, (res) => {
      status = res.statusCode ?? null;
      res.setEncoding("utf8");
      res.on("data", (c: string) => (body += c));
      res.on("end", finish);
      res.on("error", finish);
    });
    req.on("error", () => setImmediate(finish));
    req.on("close", () => setImmediate(finish));
    const pump = () => {
      while (!finished && status === null && sent < total) {
        sent += chunk.length;
        onProgress();
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (sent >= total) req.end();
    };
    pump();
  });
}

/** A 600 MB chunked upload; the answer, how much was sent, and how much the (in-process) server's memory grew. */
async function upload600(h: HttpFarm, path: string, headers: Record<string, string> = {}) {
  const before = process.memoryUsage().rss;
  let peak = before;
  let calls = 0;
  const answer = await chunkedUpload(h.url, path, 600 * 1024 * 1024, headers, () => {
    if (++calls % 8 === 0) peak = Math.max(peak, process.memoryUsage().rss);
  });
  peak = Math.max(peak, process.memoryUsage().rss);
  console.log(`${path}: ${answer.status} after ${(answer.sent / 1024 / 1024).toFixed(1)} MiB sent of 600; RSS grew ${((peak - before) / 1024 / 1024).toFixed(1)} MiB`);
  // …and the server still answers.
  expect((await raw(h.url, "/api/health", { headers: { host: "127.0.0.1" } })).status).toBe(200);
  return { ...answer, grew: peak - before };
}

/** The worker credential of a freshly enrolled worker. */
async function workerCredential(h: HttpFarm): Promise<string> {
  const answer = await raw(h.url, "/api/worker/register", {
    method: "POST",
    headers: { host: "127.0.0.1", authorization: `Bearer ${h.poolToken}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "w1", capabilities: { amounts: {}, attributes: {} } }),
  });
  expect(answer.status).toBe(200);
  return (JSON.parse(answer.body) as { credential: string }).credential;
}

describe("body limits over HTTP", () => {
  it.each([
    ["tRPC, with a token", "/api/trpc/jobs.submit", BODY_LIMITS.trpc, "token"],
    ["the worker API, with the worker's credential", "/api/worker/sync", BODY_LIMITS.worker, "worker"],
    ["sign-in", "/api/trpc/auth.signIn", BODY_LIMITS.auth, "none"],
  ] as const)("a 600 MB chunked body to %s is refused with 413 at its limit, and the server's memory grows by less than 50 MB", async (_what, path, limit, credential) => {
    const h = await httpFarm();
    const id = await person(h.farm, "root", "admin");
    const bearer = credential === "token" ? (await tokenOf(h.farm, id, "admin", "admin")).token : credential === "worker" ? await workerCredential(h) : null;
    const answer = await upload600(h, path, bearer ? { authorization: `Bearer ${bearer}` } : {});
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toMatchObject({ error: "PAYLOAD_TOO_LARGE", message: expect.stringContaining(`${Math.round(limit / 1024)} KiB`) });
    // The client stopped far short of 600 MB: the server cut the transfer off near its limit.
    expect(answer.sent).toBeLessThan(limit + 64 * 1024 * 1024);
    expect(answer.grew).toBeLessThan(50 * 1024 * 1024);
  });

  it.each([
    ["tRPC, anonymous", "/api/trpc/jobs.submit", {}, "sign in first"],
    ["tRPC, with a token the farm does not know", "/api/trpc/jobs.submit", { authorization: "Bearer loom_pat_nope" }, "unknown token"],
    ["the worker API, with no worker credential", "/api/worker/sync", { authorization: "Bearer loom_wkr_nope" }, "unknown or revoked worker credential"],
  ])("a body from a caller the server does not know (%s) is refused past the small limit, saying why", async (_what, path, headers, why) => {
    const h = await httpFarm();
    const answer = await upload600(h, path, headers);
    expect(answer.status).toBe(401);
    expect(JSON.parse(answer.body)).toMatchObject({ error: "UNAUTHORIZED", message: expect.stringContaining(why) });
    expect(answer.grew).toBeLessThan(50 * 1024 * 1024);
  });

  it("takes a small body from anyone (a stranger's sign-in, a worker told its credential is gone)", async () => {
    const h = await httpFarm();
    await person(h.farm, "root", "admin");
    expect((await new Client(h.url).signIn("root")).status).toBe(200);
    const sync = await raw(h.url, "/api/worker/sync", { method: "POST", headers: { host: "127.0.0.1", authorization: "Bearer loom_wkr_nope" }, body: "{}" });
    expect(sync.status).toBe(401);
  });

  it("refuses a declared Content-Length over the limit before reading the body", async () => {
    const h = await httpFarm();
    const answer = await raw(h.url, "/api/trpc/auth.signIn", {
      method: "POST",
      headers: { host: "127.0.0.1", "content-type": "application/json", "content-length": String(BODY_LIMITS.auth + 1) },
      body: "{",
    });
    expect(answer.status).toBe(413);
  });

  it("gives a batch naming sign-in the sign-in limit, wherever sign-in stands in it", async () => {
    const h = await httpFarm();
    const id = await person(h.farm, "root", "admin");
    const token = (await tokenOf(h.farm, id, "admin", "admin")).token;
    const body = JSON.stringify({ 0: { template: { text: "x".repeat(BODY_LIMITS.auth), format: "yaml" } }, 1: { name: "root", password: "wrong" } });
    const answer = await raw(h.url, "/api/trpc/jobs.preview,auth.signIn?batch=1", {
      method: "POST",
      headers: { host: "127.0.0.1", authorization: `Bearer ${token}`, "content-type": "application/json" },
      body,
    });
    expect(answer.status).toBe(413);
  });
});

describe("batches", () => {
  it(`run up to ${MAX_BATCH_CALLS} calls; a bigger batch is refused whole, before any call runs`, async () => {
    // Two password checks, then the address is rate-limited: the calls stay cheap.
    const h = await httpFarm({ loginFailuresPerAddress: 2 });
    const batch = (n: number) => {
      const paths = Array.from({ length: n }, () => "auth.signIn").join(",");
      const body = JSON.stringify(Object.fromEntries(Array.from({ length: n }, (_, i) => [i, { name: `nobody${i}`, password: "wrong" }])));
      return raw(h.url, `/api/trpc/${paths}?batch=1`, { method: "POST", headers: { host: new URL(h.url).host, origin: h.url, "content-type": "application/json" }, body });
    };
    const attempts = async () => (await rawOf(h.farm.store).get<{ n: number }>("SELECT COUNT(*) AS n FROM audit_log WHERE action = 'auth.sign-in'"))!.n;
    const refused = await batch(1_000);
    expect(refused.status).toBe(400);
    expect(refused.body).toContain("Batch call exceeds maximum size");
    expect(await attempts()).toBe(0);
    const allowed = await batch(MAX_BATCH_CALLS);
    const answers = JSON.parse(allowed.body) as Array<{ error: { data: { code: string } } }>;
    const codes = answers.map((a) => a.error.data.code);
    // SQLite runs the batch's calls one after another, in order; PostgreSQL reads their limits at
    // once on pooled connections, so which two reach the password check is a race (two still do).
    const inOrder = testEngine() === "sqlite" ? codes : [...codes].sort((x, y) => Number(y === "UNAUTHORIZED") - Number(x === "UNAUTHORIZED"));
    expect(inOrder).toEqual([...Array(2).fill("UNAUTHORIZED"), ...Array(MAX_BATCH_CALLS - 2).fill("TOO_MANY_REQUESTS")]);
    expect(await attempts()).toBe(MAX_BATCH_CALLS);
  });
});

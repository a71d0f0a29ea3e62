/**
 * The worker protocol over HTTP (lib/farm/protocol.ts): `workerCall` on a request whose body was
 * read as text, as the plain Node server serves it (`loom serve --headless`, tests, benchmarks),
 * and the same as a fetch-style handler for Next.js route handlers. Bodies are validated with
 * zod; errors are JSON `{ error, message }` with the status of their code.
 *
 * Who may call: `register` takes the pool's enrollment token (authenticatePool); `sync` and
 * `logs` take only the worker's own credential (authenticateWorker). Personal access tokens and
 * browser sessions never work here (no cookie is read), and tRPC never takes a worker's token.
 */
import type { z } from "zod";
import { logsRequest, PROTOCOL_PATHS, registerRequest, syncRequest, type SyncRequest, type SyncResponse } from "../../lib/farm/protocol";
import { AppError, HTTP_STATUS } from "../context/errors";
import type { Farm } from "../context/farm";
import { ingestLogs } from "../services/ingest-logs";
import { isStoreFull, storeHealth } from "../services/store-health";
import { authenticateWorker, type WorkerIdentity } from "../services/authenticate-worker";
import { authenticatePool } from "../services/pools";
import { registerWorker } from "../services/register-worker";
import { syncBatcher } from "../services/sync-batcher";
import { wakeups } from "../router/wakeups";
import type { PlainAnswer, PlainRequest, RequestInfo } from "./node-server";

/** Under Next.js route handlers (the body already read within its limits): the same protocol through web Request and Response objects. */
export async function handleWorkerRequest(farm: Farm, request: Request, info: RequestInfo): Promise<Response> {
  const answer = await workerCall(farm, {
    method: request.method,
    path: new URL(request.url).pathname,
    authorization: request.headers.get("authorization"),
    body: await request.text(),
    address: info.address,
    signal: request.signal,
  });
  return new Response(answer.body, { status: answer.status, headers: { "content-type": "application/json", ...answer.headers } });
}

/**
 * Whether a request may send a body past a stranger's share (node-server.ts): the pool's token
 * for a registration, the worker's own credential for the rest (null), or the refusal (a 401, on
 * which the agent enrolls again). Asked only of bodies past that share: a sync's rarely are.
 */
export async function admitWorker(farm: Farm, path: string, authorization: string | null): Promise<AppError | null> {
  try {
    if (path === PROTOCOL_PATHS.register) await enrollingPool(farm, authorization);
    else await authenticateWorker(farm, bearer(authorization, "the worker's credential"));
    return null;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

/** How soon a worker sends again what a full store refused. */
export const STORE_FULL_RETRY_SECONDS = 2;

/**
 * The worker protocol itself. The plain Node server calls it without building web Request and
 * Response objects (a quarter of a sync's server time went to them, anchors-scheduling §5).
 */
export async function workerCall(farm: Farm, call: PlainRequest): Promise<PlainAnswer> {
  try {
    if (call.method !== "POST") throw new AppError("NOT_FOUND", `${call.method} ${call.path} is not part of the worker protocol`);
    switch (call.path) {
      case PROTOCOL_PATHS.register: {
        const pool = await enrollingPool(farm, call.authorization);
        return stored(farm, json(200, await registerWorker(farm, pool, body(call.body, registerRequest), call.address)));
      }
      case PROTOCOL_PATHS.sync: {
        const caller = await authenticateWorker(farm, bearer(call.authorization, "the worker's credential"));
        return stored(farm, json(200, await longPollSync(farm, caller, body(call.body, syncRequest), call.signal)));
      }
      case PROTOCOL_PATHS.logs: {
        const caller = await authenticateWorker(farm, bearer(call.authorization, "the worker's credential"));
        return stored(farm, json(200, await ingestLogs(farm, caller, body(call.body, logsRequest))));
      }
      default:
        throw new AppError("NOT_FOUND", `${call.path} is not part of the worker protocol`);
    }
  } catch (error) {
    // A full disk: the transaction was rolled back, so a 503 tells the agent to keep it and send it
    // again, soon (Retry-After): the server itself answers, so the agent's growing backoff for an
    // unreachable server would only leave held lines waiting long after space returns.
    if (isStoreFull(error)) {
      const refusal = storeHealth(farm.store).failed(error);
      return { ...json(HTTP_STATUS[refusal.code], { error: refusal.code, message: refusal.message }), headers: { "retry-after": String(STORE_FULL_RETRY_SECONDS) } };
    }
    if (error instanceof AppError) return json(HTTP_STATUS[error.code], { error: error.code, message: error.message, ...(error.details ? { details: error.details } : {}) });
    console.error("worker API failure", error);
    return json(500, { error: "INTERNAL", message: "internal error" });
  }
}

/**
 * A sync; when the worker is idle, got nothing and allows it (waitSeconds), held until something
 * changes on the farm (a job submitted, tasks released, a worker change) or the time is up, then
 * made again. Its reports were applied by the first sync, so the second carries none.
 */
async function longPollSync(farm: Farm, caller: WorkerIdentity, sync: SyncRequest, signal: AbortSignal): Promise<SyncResponse> {
  const first = await syncBatcher(farm).sync(caller, sync);
  const idle = sync.sessions.length === 0 && sync.actions.length === 0 && !sync.draining && first.assignments.length === 0 && first.cancel.length === 0;
  if (!idle || !sync.waitSeconds) return first;
  await farmChange(farm, sync.waitSeconds * 1000, signal);
  if (signal.aborted) return first;
  return syncBatcher(farm).sync(caller, { ...sync, updates: [], waitSeconds: 0 });
}

/** Every protocol call writes (a heartbeat at least): one that went through says the store writes. */
function stored(farm: Farm, answer: PlainAnswer): PlainAnswer {
  storeHealth(farm.store).succeeded();
  return answer;
}

async function farmChange(farm: Farm, timeoutMs: number, signal: AbortSignal): Promise<void> {
  const changes = wakeups(farm.events, ["jobs", "workers"], signal);
  try {
    await changes.next(timeoutMs);
  } finally {
    changes.close();
  }
}

function bearer(header: string | null, what: string): string {
  const token = /^Bearer (.+)$/i.exec(header ?? "")?.[1]?.trim();
  if (!token) throw new AppError("UNAUTHORIZED", `send ${what} as 'Authorization: Bearer <token>'`);
  return token;
}

async function enrollingPool(farm: Farm, header: string | null) {
  const pool = await authenticatePool(farm, bearer(header, "the pool's token"));
  if (!pool) throw new AppError("UNAUTHORIZED", "unknown pool token");
  return pool;
}

function body<T extends z.ZodType>(text: string, schema: T): z.infer<T> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new AppError("BAD_REQUEST", "the body is not valid JSON");
  }
  const result = schema.safeParse(parsed);
  if (!result.success) {
    const issues = result.error.issues.map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`);
    throw new AppError("BAD_REQUEST", `invalid request: ${issues.slice(0, 5).join("; ")}`, { issues: result.error.issues });
  }
  return result.data;
}

function json(status: number, value: unknown): PlainAnswer {
  return { status, body: JSON.stringify(value) };
}

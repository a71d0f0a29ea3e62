/**
 * The worker's side of lib/farm/protocol.ts over HTTP: JSON POSTs with a bearer token — the
 * pool's enrollment token to register, the worker's own credential (which the registration
 * answered with) for sync and logs. Failures are classified for the agent: the lease was fenced
 * (409 LEASE_CONFLICT), the token was refused (401: enroll again, or stop when enrolling), the
 * server refused the request (another 4xx: retrying the same request will not help), or the
 * server could not be reached or failed (network error, timeout, 5xx: retry later).
 *
 * Given several servers (replicas of one farm on one database), the client talks to one at a
 * time and moves to the next in the list when the current one stops answering: no connection, no
 * answer in time, 502/503/504 without a Retry-After (a gateway in front of a dead replica), or
 * 403/404/405/421 (not the farm there: a proxy's page, a replica mid-upgrade; with one server
 * these are refusals). A 503 with Retry-After comes from a replica that is up (its store is full)
 * and says when to come back, so the client stays. A long poll's timeout counts from the end of
 * the wait it asked for (a loaded replica answering late is not a dead one). Nothing of the
 * worker's is tied to a replica: its credential, lease, Sessions and log seqs live in the farm's
 * database, so the next request simply goes elsewhere.
 */
import { PROTOCOL_PATHS, type LogsRequest, type LogsResponse, type RegisterRequest, type RegisterResponse, type SyncRequest, type SyncResponse } from "../../lib/farm/protocol";

export class LeaseConflictError extends Error {}

/** The server answered 4xx (but 408, 409 fencing, 429): the request itself is refused. */
export class RequestRefusedError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The answer without the URL, e.g. `HTTP 401: unknown pool token`. */
    readonly reason = message,
  ) {
    super(message);
  }
}

/** 401: the server does not take this token (any more). */
export class CredentialRefusedError extends RequestRefusedError {}

/** Unreachable, timed out, or 5xx / 408 / 429: worth retrying. */
export class ServerUnavailableError extends Error {
  constructor(
    message: string,
    /** The server's own Retry-After, when it answered with one (it is up, and says when to come back). */
    readonly retryAfterMs: number | null = null,
    /**
     * The client moved to this server, which has not been tried since the last answer: worth
     * trying at once. Null when there was no move, or when the move closed a round of the list
     * (then the agent's backoff applies).
     */
    readonly nextServer: string | null = null,
  ) {
    super(message);
  }
}

/** 403/404/405/421 from one of several servers: the farm is not there (the client moved on). */
export class ServerMisdirectedError extends ServerUnavailableError {
  constructor(
    readonly status: number,
    message: string,
    nextServer: string | null,
  ) {
    super(message, null, nextServer);
  }
}

/** The client left a server that stopped answering (or that refused a registration: WorkerClient.leave). */
export interface ServerMove {
  from: string;
  to: string;
  /** What went wrong, e.g. `connect ECONNREFUSED 10.0.0.5:3000`, `no answer in time`, `HTTP 502`. */
  reason: string;
}

/** Retry-After in seconds (the HTTP-date form is not used by Loom's server), capped at a minute. */
function retryAfterMs(header: string | null): number | null {
  if (header === null || !/^\d{1,6}$/.test(header.trim())) return null;
  return Math.min(60_000, Number(header.trim()) * 1000);
}

export interface WorkerClientOptions {
  /** The farm's server, or several replicas of it in order of preference. */
  serverUrl: string | readonly string[];
  /** The pool's enrollment token. */
  token: string;
  fetch?: typeof fetch;
  /** Per request (default 30 s); a long poll gets its wait on top. */
  timeoutMs?: number;
  /** Called once per move to the next server. */
  onServerMoved?: (move: ServerMove) => void;
}

/** Answers that mean "this server is gone", not "this server refuses". */
const GATEWAY_FAILURES = new Set([502, 503, 504]);
/** With several servers, answers that mean "the farm is not here" (a proxy's 403/404, a replica mid-upgrade, a misdirected request). */
const NOT_THE_FARM = new Set([403, 404, 405, 421]);

export class WorkerClient {
  private readonly fetchImpl: typeof fetch;
  private enrollmentToken: string;
  private readonly servers: readonly string[];
  /** Index in `servers` of the one requests go to. */
  private current = 0;
  /** Moves since a server last answered: a multiple of the list's length closes a round. */
  private movesUnanswered = 0;

  constructor(private readonly options: WorkerClientOptions) {
    this.fetchImpl = options.fetch ?? fetch;
    this.enrollmentToken = options.token;
    this.servers = typeof options.serverUrl === "string" ? [options.serverUrl] : [...options.serverUrl];
    if (this.servers.length === 0) throw new Error("WorkerClient: no server given");
  }

  /** The server requests go to now. */
  get serverUrl(): string {
    return this.servers[this.current] as string;
  }

  /** How many servers the client was given. */
  get serverCount(): number {
    return this.servers.length;
  }

  /** The admin rotated the pool's token (the agent reread its token file). */
  setEnrollmentToken(token: string): void {
    this.enrollmentToken = token;
  }

  register(request: RegisterRequest, signal?: AbortSignal): Promise<RegisterResponse> {
    return this.post(PROTOCOL_PATHS.register, this.enrollmentToken, request, signal);
  }

  sync(credential: string, request: SyncRequest, signal?: AbortSignal): Promise<SyncResponse> {
    // The server holds a long poll up to waitSeconds by design: the timeout starts after that.
    return this.post(PROTOCOL_PATHS.sync, credential, request, signal, (request.waitSeconds ?? 0) * 1000);
  }

  logs(credential: string, request: LogsRequest, signal?: AbortSignal): Promise<LogsResponse> {
    return this.post(PROTOCOL_PATHS.logs, credential, request, signal);
  }

  /**
   * The agent leaves the server in use although it answered (it refused a registration another
   * may take): as when it stops answering. Returns the server to try at once, or null.
   */
  leave(reason: string): string | null {
    return this.stoppedAnswering(this.current, reason);
  }

  private async post<T>(path: string, token: string, body: unknown, signal?: AbortSignal, waitMs = 0): Promise<T> {
    const server = this.current;
    const url = new URL(path, this.serverUrl).toString();
    const timeout = AbortSignal.timeout((this.options.timeoutMs ?? 30_000) + waitMs);
    let response: Response;
    let text: string;
    try {
      response = await this.fetchImpl(url, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(body),
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
      text = await response.text();
    } catch (error) {
      if (signal?.aborted) throw error;
      const reason = describeFetchError(error);
      throw new ServerUnavailableError(`${url}: ${reason}`, null, this.stoppedAnswering(server, reason));
    }
    const retryAfter = retryAfterMs(response.headers.get("retry-after"));
    const gone = GATEWAY_FAILURES.has(response.status) && retryAfter === null;
    const elsewhere = this.servers.length > 1 && NOT_THE_FARM.has(response.status);
    if (gone || elsewhere) {
      const detail = errorDetail(text);
      const reason = `HTTP ${response.status}${detail.message ? `: ${detail.message}` : ""}`;
      const next = this.stoppedAnswering(server, reason);
      throw gone ? new ServerUnavailableError(`${url}: ${reason}`, null, next) : new ServerMisdirectedError(response.status, `${url}: ${reason}`, next);
    }
    // Whatever else it says, the server is there.
    this.movesUnanswered = 0;
    if (response.ok) {
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new ServerUnavailableError(`${url}: the answer is not JSON (HTTP ${response.status})`);
      }
    }
    const detail = errorDetail(text);
    if (response.status === 409 && detail.code === "LEASE_CONFLICT") throw new LeaseConflictError(detail.message ?? "lease conflict");
    const reason = `HTTP ${response.status}${detail.message ? `: ${detail.message}` : ""}`;
    const message = `${url}: ${reason}`;
    if (response.status === 401) throw new CredentialRefusedError(response.status, message, reason);
    if (response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429) {
      throw new RequestRefusedError(response.status, message, reason);
    }
    throw new ServerUnavailableError(message, retryAfter);
  }

  /**
   * The server at `index` did not answer: the next request goes to the next one in the list
   * (unless a request that failed meanwhile moved already). Returns the server to try at once,
   * or null when there is no other or the list has been gone round since the last answer.
   */
  private stoppedAnswering(index: number, reason: string): string | null {
    if (this.servers.length < 2) return null;
    if (index === this.current) {
      const from = this.serverUrl;
      this.current = (index + 1) % this.servers.length;
      this.movesUnanswered++;
      this.options.onServerMoved?.({ from, to: this.serverUrl, reason });
    }
    return this.movesUnanswered % this.servers.length === 0 ? null : this.serverUrl;
  }
}

function errorDetail(text: string): { code?: string; message?: string } {
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    return {
      ...(typeof body.error === "string" ? { code: body.error } : {}),
      ...(typeof body.message === "string" ? { message: body.message } : {}),
    };
  } catch {
    const plain = text.trim().slice(0, 200);
    return plain ? { message: plain } : {};
  }
}

function describeFetchError(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === "TimeoutError") return "no answer in time";
    const cause = (error as { cause?: unknown }).cause;
    if (cause instanceof Error && cause.message) return cause.message;
    return error.message;
  }
  return String(error);
}

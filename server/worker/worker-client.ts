/**
 * The worker's side of lib/farm/protocol.ts over HTTP: JSON POSTs with a bearer token — the
 * pool's enrollment token to register, the worker's own credential (which the registration
 * answered with) for sync and logs. Failures are classified for the agent: the lease was fenced
 * (409 LEASE_CONFLICT), the token was refused (401: enroll again, or stop when enrolling), the
 * server refused the request (another 4xx: retrying the same request will not help), or the
 * server could not be reached or failed (network error, timeout, 5xx: retry later).
 */
import {
  PROTOCOL_PATHS,
  type LogsRequest,
  type LogsResponse,
  type RegisterRequest,
  type RegisterResponse,
  type SyncRequest,
  type SyncResponse,
} from "../../lib/farm/protocol";

export class LeaseConflictError extends Error {}

/** The server answered 4xx (but 408, 409 fencing, 429): the request itself is refused. */
export class RequestRefusedError extends Error {
  constructor(
    readonly status: number,
    message: string,
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
  ) {
    super(message);
  }
}

/** Retry-After in seconds (the HTTP-date form is not used by Loom's server), capped at a minute. */
function retryAfterMs(header: string | null): number | null {
  if (header === null || !/^\d{1,6}$/.test(header.trim())) return null;
  return Math.min(60_000, Number(header.trim()) * 1000);
}

export interface WorkerClientOptions {
  serverUrl: string;
  /** The pool's enrollment token. */
  token: string;
  fetch?: typeof fetch;
  /** Per request (default 30 s). */
  timeoutMs?: number;
}

export class WorkerClient {
  private readonly fetchImpl: typeof fetch;
  private enrollmentToken: string;

  constructor(private readonly options: WorkerClientOptions) {
    this.fetchImpl = options.fetch ?? fetch;
    this.enrollmentToken = options.token;
  }

  /** The admin rotated the pool's token (the agent reread its token file). */
  setEnrollmentToken(token: string): void {
    this.enrollmentToken = token;
  }

  register(request: RegisterRequest, signal?: AbortSignal): Promise<RegisterResponse> {
    return this.post(PROTOCOL_PATHS.register, this.enrollmentToken, request, signal);
  }

  sync(credential: string, request: SyncRequest, signal?: AbortSignal): Promise<SyncResponse> {
    return this.post(PROTOCOL_PATHS.sync, credential, request, signal);
  }

  logs(credential: string, request: LogsRequest, signal?: AbortSignal): Promise<LogsResponse> {
    return this.post(PROTOCOL_PATHS.logs, credential, request, signal);
  }

  private async post<T>(path: string, token: string, body: unknown, signal?: AbortSignal): Promise<T> {
    const url = new URL(path, this.options.serverUrl).toString();
    const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 30_000);
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
      throw new ServerUnavailableError(`${url}: ${describeFetchError(error)}`);
    }
    if (response.ok) {
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new ServerUnavailableError(`${url}: the answer is not JSON (HTTP ${response.status})`);
      }
    }
    const detail = errorDetail(text);
    if (response.status === 409 && detail.code === "LEASE_CONFLICT") throw new LeaseConflictError(detail.message ?? "lease conflict");
    const message = `${url}: HTTP ${response.status}${detail.message ? `: ${detail.message}` : ""}`;
    if (response.status === 401) throw new CredentialRefusedError(response.status, message);
    if (response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429) {
      throw new RequestRefusedError(response.status, message);
    }
    throw new ServerUnavailableError(message, retryAfterMs(response.headers.get("retry-after")));
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

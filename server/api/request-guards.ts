/**
 * What every request passes before any work is done for it: a Host the server serves (DNS
 * rebinding: a page on evil.example resolved to 127.0.0.1 still sends `Host: evil.example`),
 * a body within the limit of its route (counted while it streams in, so a chunked upload
 * without a Content-Length is cut off at the limit, not after it has been buffered) and, past a
 * small share, from a caller the server knows (else anyone could make it hold a large body per
 * connection), and for browser mutations the same-origin check (CSRF).
 */
import { isIP } from "node:net";
import { SESSION_COOKIE } from "../auth/authenticate";
import { AppError } from "../context/errors";
import type { FarmSettings } from "../context/farm";

/** Body limits by route. A template is at most 4 MB of text; a worker batch is cut to fit. */
export const BODY_LIMITS = {
  /** Signing in, setup, tokens: small forms. Also all a caller the server does not know may send anywhere. */
  auth: 64 * 1024,
  /** tRPC calls: a submission with its template and environment templates, a bundle import. */
  trpc: 16 * 1024 * 1024,
  /** The worker protocol: a sync or a log batch (the agent keeps each under 8 MB). */
  worker: 16 * 1024 * 1024,
} as const;

/**
 * The most calls one tRPC batch may hold. The portal batches the few queries a page starts
 * together; without a cap, one request of a thousand calls (sign-in attempts, refused actions,
 * each with its audit row) runs them all before the server answers anything else.
 */
export const MAX_BATCH_CALLS = 50;

const TRPC_PREFIX = "/api/trpc/";

/** The limit of a route; for a tRPC batch, the smallest of the procedures it names. */
export function bodyLimitFor(path: string): number {
  if (path.startsWith("/api/worker/")) return BODY_LIMITS.worker;
  if (!path.startsWith(TRPC_PREFIX)) return BODY_LIMITS.trpc;
  let procedures: string[];
  try {
    // tRPC decodes the path before splitting it ("%2C" is a comma to it).
    procedures = decodeURIComponent(path.slice(TRPC_PREFIX.length)).split(",");
  } catch {
    return BODY_LIMITS.auth;
  }
  return procedures.some((p) => /^(auth|tokens)\./.test(p)) ? BODY_LIMITS.auth : BODY_LIMITS.trpc;
}

export function tooLargeMessage(limit: number): string {
  return `the request body is larger than this route accepts (${Math.round(limit / 1024)} KiB); nothing was read past that`;
}

/**
 * What a caller the server does not know yet may send: `bytes`, past which `admit` (the
 * credential check, asked once) says whether they may send more: null, or the refusal to answer.
 * Bodies that small are read without asking, so a worker's sync pays nothing for it.
 */
export interface StrangerLimit {
  bytes: number;
  admit(): AppError | null | Promise<AppError | null>;
}

/**
 * Reads a body, refusing it (PAYLOAD_TOO_LARGE) as soon as more than `limit` bytes have
 * arrived, whatever the Content-Length said; with `stranger`, the caller is also asked to be
 * admitted once the body passes a stranger's share. `cancel` is called on a refusal, to stop
 * the transfer.
 */
export async function readLimited(chunks: AsyncIterable<Uint8Array>, limit: number, declaredLength: string | null, cancel?: () => void, stranger?: StrangerLimit): Promise<Buffer> {
  const refuse = (error: AppError): never => {
    cancel?.();
    throw error;
  };
  // A stranger's share that is not below the route's limit changes nothing.
  let share = stranger && stranger.bytes < limit ? stranger : null;
  // A promise only when the caller is asked (once): the chunks of a small body pass without awaiting anything.
  const pass = (size: number): Promise<void> | undefined => {
    if (size > limit) refuse(new AppError("PAYLOAD_TOO_LARGE", tooLargeMessage(limit)));
    if (share && size > share.bytes) {
      const asked = share;
      share = null;
      return admitOrRefuse(asked, refuse);
    }
    return undefined;
  };
  const declared = declaredLength !== null ? pass(Number(declaredLength) || 0) : undefined;
  if (declared) await declared;
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.byteLength;
    const admitting = pass(size);
    if (admitting) await admitting;
    parts.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }
  return Buffer.concat(parts, size);
}

async function admitOrRefuse(stranger: StrangerLimit, refuse: (error: AppError) => never): Promise<void> {
  const refusal = await stranger.admit();
  if (refusal) refuse(refusal);
}

/**
 * The name part of a Host header (`[::1]:3000` → `::1`, `Farm.Example.:80` → `farm.example`:
 * lower case, without the port or a trailing dot), or null when the header is not a name and an
 * optional port (`[::1]evil.example`, `localhost:abc`): the server could not even make a URL of it.
 */
export function hostName(host: string): string | null {
  const match = /^(?:\[([0-9a-f:.]+)\]|([^[\]:]+))(?::(\d{0,5}))?$/.exec(host.trim().toLowerCase());
  if (!match || (match[3] && Number(match[3]) > 65_535)) return null;
  if (match[1] !== undefined) return isIP(match[1]) === 6 ? match[1] : null;
  return match[2]!.endsWith(".") ? match[2]!.slice(0, -1) : match[2]!;
}

/**
 * Whether the server serves this Host: loopback names, IP addresses (an address cannot be
 * rebound), the public URL's host, and the names configured in LOOM_ALLOWED_HOSTS.
 */
export function hostAllowed(host: string | null, settings: Pick<FarmSettings, "allowedHosts" | "publicUrl">): boolean {
  const name = host === null ? null : hostName(host);
  if (!name || /[^a-z0-9.\-:]/.test(name)) return false;
  if (isIP(name) !== 0) return true;
  if (name === "localhost" || name.endsWith(".localhost")) return true;
  if (settings.publicUrl && new URL(settings.publicUrl).hostname.toLowerCase() === name) return true;
  return settings.allowedHosts.includes(name);
}

export function misdirected(host: string | null): { status: number; body: string } {
  return {
    status: 421,
    body: JSON.stringify({
      error: "MISDIRECTED",
      message: `this server does not serve the host '${(host ?? "").slice(0, 100)}'; if that is its real name, add it to LOOM_ALLOWED_HOSTS`,
    }),
  };
}

/**
 * The CSRF check for a mutation. A browser sends Origin (or at least Sec-Fetch-Site) with every
 * POST: it must be this server's own. A request with neither comes from a program, not a page;
 * it passes only when it carries no cookie (cross-site forgery needs the browser's cookie).
 * A request with an Authorization header passes whatever else it carries: the token, not a
 * cookie, says who calls (authenticate prefers it), and no page can make a browser send one to
 * another site without a CORS preflight, which this server never grants.
 */
export function sameOriginRequest(headers: { get(name: string): string | null }, settings: Pick<FarmSettings, "publicUrl">): boolean {
  if (headers.get("authorization") !== null) return true;
  const origin = headers.get("origin");
  const host = headers.get("host");
  if (origin !== null) {
    if (origin === "null") return false;
    try {
      const url = new URL(origin);
      if (settings.publicUrl && url.origin === new URL(settings.publicUrl).origin) return true;
      return host !== null && url.host.toLowerCase() === host.toLowerCase();
    } catch {
      return false;
    }
  }
  const site = headers.get("sec-fetch-site");
  if (site !== null) return site === "same-origin" || site === "none";
  return cookieValue(headers.get("cookie"), SESSION_COOKIE) === null;
}

/** The value of one cookie in a Cookie header. */
export function cookieValue(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    try {
      return decodeURIComponent(value);
    } catch {
      // Badly encoded: as sent (it matches no credential), rather than an error on every call.
      return value;
    }
  }
  return null;
}

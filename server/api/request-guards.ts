/**
 * What every request passes before any work is done for it: a Host the server serves (DNS
 * rebinding: a page on evil.example resolved to 127.0.0.1 still sends `Host: evil.example`),
 * a body within the limit of its route (counted while it streams in, so a chunked upload
 * without a Content-Length is cut off at the limit, not after it has been buffered), and for
 * browser mutations the same-origin check (CSRF).
 */
import { isIP } from "node:net";
import { AppError } from "../services/errors";
import type { FarmSettings } from "../services/farm";

/** Body limits by route. A template is at most 4 MB of text; a worker batch is cut to fit. */
export const BODY_LIMITS = {
  /** Signing in, setup, tokens: small forms. */
  auth: 64 * 1024,
  /** tRPC calls: a submission with its template and environment templates, a bundle import. */
  trpc: 16 * 1024 * 1024,
  /** The worker protocol: a sync or a log batch (the agent keeps each under 8 MB). */
  worker: 16 * 1024 * 1024,
} as const;

export function bodyLimitFor(path: string): number {
  if (path.startsWith("/api/worker/")) return BODY_LIMITS.worker;
  if (/^\/api\/trpc\/(auth|tokens)\./.test(path)) return BODY_LIMITS.auth;
  return BODY_LIMITS.trpc;
}

export function tooLargeMessage(limit: number): string {
  return `the request body is larger than this route accepts (${Math.round(limit / 1024)} KiB); nothing was read past that`;
}

/**
 * Reads a body, refusing it (PAYLOAD_TOO_LARGE) as soon as more than `limit` bytes have
 * arrived, whatever the Content-Length said. `cancel` is called then, to stop the transfer.
 */
export async function readLimited(chunks: AsyncIterable<Uint8Array>, limit: number, declaredLength: string | null, cancel?: () => void): Promise<Buffer> {
  if (declaredLength !== null && Number(declaredLength) > limit) {
    cancel?.();
    throw new AppError("PAYLOAD_TOO_LARGE", tooLargeMessage(limit));
  }
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of chunks) {
    size += chunk.byteLength;
    if (size > limit) {
      cancel?.();
      throw new AppError("PAYLOAD_TOO_LARGE", tooLargeMessage(limit));
    }
    parts.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }
  return Buffer.concat(parts, size);
}

/** The name part of a Host header (`[::1]:3000` → `::1`, `Farm.Example:80` → `farm.example`). */
export function hostName(host: string): string {
  const trimmed = host.trim().toLowerCase();
  if (trimmed.startsWith("[")) return trimmed.slice(1, trimmed.indexOf("]") === -1 ? undefined : trimmed.indexOf("]"));
  const colon = trimmed.lastIndexOf(":");
  return colon === -1 ? trimmed : trimmed.slice(0, colon);
}

/**
 * Whether the server serves this Host: loopback names, IP addresses (an address cannot be
 * rebound), the public URL's host, and the names configured in LOOM_ALLOWED_HOSTS.
 */
export function hostAllowed(host: string | null, settings: Pick<FarmSettings, "allowedHosts" | "publicUrl">): boolean {
  if (!host) return false;
  const name = hostName(host);
  if (name === "" || /[^a-z0-9.\-:]/.test(name)) return false;
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
 */
export function sameOriginRequest(headers: { get(name: string): string | null }, settings: Pick<FarmSettings, "publicUrl">): boolean {
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
  return !(headers.get("cookie") ?? "").includes("loom_session=");
}

/** The value of one cookie in a Cookie header. */
export function cookieValue(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq !== -1 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return null;
}

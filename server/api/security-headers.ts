/**
 * Response headers that keep the portal's pages to themselves: a Content-Security-Policy that
 * lets only the app's own scripts run (Next.js's inline bootstrap carries the per-response
 * nonce), workers (Monaco) and connections only to this origin, inline styles (Monaco and React
 * Flow position things with style attributes), and no framing by anyone.
 */
export function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "worker-src 'self' blob:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export function pageSecurityHeaders(nonce: string): Record<string, string> {
  return {
    "content-security-policy": contentSecurityPolicy(nonce),
    "x-frame-options": "DENY",
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "cross-origin-opener-policy": "same-origin",
    "permissions-policy": "camera=(), microphone=(), geolocation=()",
  };
}

/** API answers: never sniffed, never cached by a shared cache. */
export const API_HEADERS: Record<string, string> = {
  "x-content-type-options": "nosniff",
  "cache-control": "no-store",
};

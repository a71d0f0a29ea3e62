/** The portal's page headers: a CSP that runs only the app's own scripts (and this response's nonce), no framing, no sniffing. */
import { describe, expect, it } from "vitest";
import { API_HEADERS, contentSecurityPolicy, pageSecurityHeaders } from "./security-headers";

function directives(csp: string): Record<string, string[]> {
  return Object.fromEntries(
    csp
      .split(";")
      .map((d) => d.trim().split(/\s+/))
      .map(([name, ...values]) => [name!, values]),
  );
}

describe("page security headers", () => {
  it("let only this origin's scripts and the response's nonce run, and nobody frame the portal", () => {
    const csp = directives(contentSecurityPolicy("abc123"));
    expect(csp["script-src"]).toEqual(["'self'", "'nonce-abc123'"]);
    expect(csp["frame-ancestors"]).toEqual(["'none'"]);
    expect(csp["object-src"]).toEqual(["'none'"]);
    expect(csp["connect-src"]).toEqual(["'self'"]);
    expect(csp["default-src"]).toEqual(["'self'"]);
    for (const values of Object.values(csp)) expect(values).not.toContain("*");
    expect(csp["script-src"]).not.toContain("'unsafe-inline'");
    expect(csp["script-src"]).not.toContain("'unsafe-eval'");
  });

  it("come with nosniff, DENY framing and a same-origin referrer policy", () => {
    const headers = pageSecurityHeaders("n");
    expect(headers).toMatchObject({ "x-frame-options": "DENY", "x-content-type-options": "nosniff", "referrer-policy": "same-origin" });
    expect(headers["content-security-policy"]).toContain("'nonce-n'");
    expect(pageSecurityHeaders("a")["content-security-policy"]).not.toBe(pageSecurityHeaders("b")["content-security-policy"]);
  });

  it("keep API answers out of shared caches and unsniffed", () => {
    expect(API_HEADERS).toEqual({ "x-content-type-options": "nosniff", "cache-control": "no-store" });
  });
});

/**
 * Random credentials and their fingerprints. Every credential Loom issues (session cookies,
 * personal access tokens, pool enrollment tokens, worker credentials, the setup token) is 32
 * random bytes with a prefix that says what it is; only its SHA-256 is stored, so a copy of the
 * database lets nobody in. High-entropy secrets need no slow hash: that is for passwords.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

export const SECRET_PREFIXES = {
  session: "loom_ses_",
  token: "loom_pat_",
  enrollment: "loom_enr_",
  worker: "loom_wkr_",
  setup: "loom_setup_",
} as const;

export type SecretKind = keyof typeof SECRET_PREFIXES;

export function newSecret(kind: SecretKind): string {
  return `${SECRET_PREFIXES[kind]}${randomBytes(32).toString("base64url")}`;
}

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret, "utf8").digest("hex");
}

/** Equal without leaking where they differ (both are hex digests of the same length). */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A short random id for rows (`usr-…`, `tok-…`): not a secret. */
export function newId(prefix: string): string {
  return `${prefix}-${randomBytes(6).toString("hex")}`;
}

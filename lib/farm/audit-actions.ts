/**
 * What the audit log records (design/access-control.md "Audit"): every change and every sign-in
 * attempt. A vocabulary, so the admin page's filter and the writers cannot drift apart.
 */
export const AUDIT_ACTIONS = [
  "auth.sign-in",
  "auth.sign-out",
  "auth.setup",
  "access.refused",
  "user.create",
  "user.set-role",
  "user.disable",
  "user.enable",
  "user.set-password",
  "token.create",
  "token.revoke",
  "job.submit",
  "job.cancel",
  "job.suspend",
  "job.resume",
  "job.requeue",
  "job.retry",
  "job.priority",
  "job.archive",
  "job.delete",
  "job.clear-worker-failures",
  "pool.create",
  "pool.rotate-token",
  "pool.enable",
  "pool.disable",
  "pool.drain",
  "worker.enroll",
  "worker.drain",
  "worker.undrain",
  "worker.disable",
  "worker.enable",
  "worker.remove",
  "worker.release",
  "template.save",
  "template.delete",
  "retention.purge",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export const AUDIT_OUTCOMES = ["ok", "refused", "failed"] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

export const ACTOR_KINDS = ["user", "worker", "shell", "system", "anonymous"] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

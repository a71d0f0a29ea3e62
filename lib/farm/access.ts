/**
 * Who may do what (design/access-control.md): roles, token scopes and the rules every tRPC
 * procedure, route and subscription declares. Pure data and one decision function, shared by the
 * server (which enforces) and the portal (which only hides what the server would refuse).
 *
 * A role includes every role before it. A personal access token can do what its owner's role
 * allows, and no more than its scope: `read` reads, `submit` also submits and acts on jobs,
 * `admin` is everything the role allows.
 */

export const ROLES = ["viewer", "artist", "wrangler", "admin"] as const;
export type Role = (typeof ROLES)[number];

export const TOKEN_SCOPES = ["read", "submit", "admin"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

export const ROLE_LABELS: Record<Role, string> = { viewer: "Viewer", artist: "Artist", wrangler: "Wrangler", admin: "Admin" };

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  viewer: "reads jobs, steps, tasks, logs, pools and workers",
  artist: "also submits, and acts on their own jobs (cancel, suspend, resume, requeue, retry, priority up to 70)",
  wrangler: "also acts on every job, with any priority",
  admin: "also manages pools, workers, users, tokens and the audit log",
};

/** The highest priority an artist may give their own job; wranglers and admins have no cap. */
export const ARTIST_PRIORITY_CAP = 70;

export function roleAtLeast(role: Role, least: Role): boolean {
  return ROLES.indexOf(role) >= ROLES.indexOf(least);
}

/** The role a scope limits a token to. */
const SCOPE_CEILING: Record<TokenScope, Role> = { read: "viewer", submit: "wrangler", admin: "admin" };

/** What a caller may do: its role, cut down to what its token's scope allows. */
export function effectiveRole(role: Role, scope: TokenScope | null): Role {
  if (scope === null) return role;
  const ceiling = SCOPE_CEILING[scope];
  return ROLES.indexOf(role) <= ROLES.indexOf(ceiling) ? role : ceiling;
}

/** The caller as the rules see it (null: nobody signed in). */
export interface Caller {
  userId: string;
  role: Role;
  /** null for a browser session; the token's scope otherwise. */
  scope: TokenScope | null;
}

/**
 * A procedure's rule. `anyone` needs no sign-in (signing in, first-start setup); `signedIn` is
 * any caller acting on their own things (sign out, their tokens); `role` needs at least that
 * role; `ownJob` / `ownTemplate` let a wrangler act on any and an artist on their own (the id is
 * read from the input field named by `key`).
 */
export type Rule = { kind: "anyone" } | { kind: "signedIn" } | { kind: "role"; role: Role } | { kind: "ownJob"; key: "jobId" } | { kind: "ownTemplate"; key: "id" | "name" };

export const RULES = {
  anyone: { kind: "anyone" },
  signedIn: { kind: "signedIn" },
  read: { kind: "role", role: "viewer" },
  submit: { kind: "role", role: "artist" },
  wrangle: { kind: "role", role: "wrangler" },
  admin: { kind: "role", role: "admin" },
  ownJob: { kind: "ownJob", key: "jobId" },
} as const satisfies Record<string, Rule>;

export type Verdict = { ok: true } | { ok: false; status: "UNAUTHORIZED" | "FORBIDDEN"; message: string };

const ALLOW: Verdict = { ok: true };

/**
 * The verdict for a caller. For owner rules, `ownerId` is the owner of the job or template the
 * call names (undefined: the rule is being checked before that is known, and only the role part
 * is decided).
 */
export function decide(caller: Caller | null, rule: Rule, ownerId?: string | null): Verdict {
  if (rule.kind === "anyone") return ALLOW;
  if (!caller) return { ok: false, status: "UNAUTHORIZED", message: "sign in first (or send a token as 'Authorization: Bearer <token>')" };
  if (rule.kind === "signedIn") return ALLOW;
  const role = effectiveRole(caller.role, caller.scope);
  const refuse = (message: string): Verdict => ({ ok: false, status: "FORBIDDEN", message });
  const scoped = caller.scope !== null && role !== caller.role ? ` (this token's scope is '${caller.scope}')` : "";
  switch (rule.kind) {
    case "role":
      return roleAtLeast(role, rule.role) ? ALLOW : refuse(`this needs the ${rule.role} role or higher; you are ${roleWithArticle(role)}${scoped}`);
    case "ownJob":
    case "ownTemplate": {
      const what = rule.kind === "ownJob" ? "job" : "template";
      if (roleAtLeast(role, "wrangler")) return ALLOW;
      if (!roleAtLeast(role, "artist")) return refuse(`acting on a ${what} needs the artist role or higher; you are ${roleWithArticle(role)}${scoped}`);
      if (ownerId === undefined || ownerId === caller.userId) return ALLOW;
      return refuse(`this ${what} is someone else's: artists act on their own, wranglers on every ${what}`);
    }
  }
}

/** "an admin", "a viewer": a role in a sentence. */
export function roleWithArticle(role: Role): string {
  return `${role === "admin" || role === "artist" ? "an" : "a"} ${role}`;
}

/** Whether the portal should offer job actions to this caller (the server decides again). */
export function mayActOnJob(caller: Caller | null, ownerId: string | null): boolean {
  return decide(caller, RULES.ownJob, ownerId ?? "").ok;
}

/** The priority this caller may set (artists are capped). */
export function maxPriorityFor(caller: Caller): number {
  return roleAtLeast(effectiveRole(caller.role, caller.scope), "wrangler") ? 100 : ARTIST_PRIORITY_CAP;
}

/** 3 to 64 letters, digits, '.', '_', '-', starting with a letter or digit. */
export const USER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{2,63}$/;
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 1024;

/** Why a password is refused, or null. */
export function passwordProblem(password: string, userName: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `a password needs at least ${PASSWORD_MIN_LENGTH} characters`;
  if (password.length > PASSWORD_MAX_LENGTH) return `a password may have at most ${PASSWORD_MAX_LENGTH} characters`;
  if (password.toLowerCase().includes(userName.toLowerCase())) return "a password must not contain the user name";
  return null;
}

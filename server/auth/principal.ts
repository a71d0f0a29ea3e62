/**
 * Who is calling: a signed-in person (browser session) or the owner of a personal access token.
 * Resolved from the database on every request, so a role change or a disabled account takes
 * effect on the next call.
 */
import type { Caller, Role, TokenScope } from "../../lib/farm/access";
import type { Actor } from "../services/audit";

export interface Principal extends Caller {
  name: string;
  kind: "person" | "service";
  via: "session" | "token";
  /** The browser session or the token that authenticated the call. */
  credentialId: string;
}

/** Where a request came from, for the audit log and per-address limits. */
export interface RequestOrigin {
  address: string | null;
  userAgent: string | null;
}

export function actorOf(principal: Principal | null, origin: RequestOrigin): Actor {
  if (!principal) return { kind: "anonymous", id: null, name: "anonymous", via: null, address: origin.address, userAgent: origin.userAgent };
  return {
    kind: "user",
    id: principal.userId,
    name: principal.name,
    via: principal.via === "session" ? "session" : `token:${principal.credentialId}`,
    address: origin.address,
    userAgent: origin.userAgent,
  };
}

/** What the portal is told about the caller (never a credential). */
export interface Me {
  userId: string;
  name: string;
  role: Role;
  scope: TokenScope | null;
  kind: "person" | "service";
}

export function meOf(principal: Principal): Me {
  return { userId: principal.userId, name: principal.name, role: principal.role, scope: principal.scope, kind: principal.kind };
}

/**
 * Who is looking at a page (Server Components): the session cookie, checked like any API call
 * (server/auth/authenticate.ts), once per request. Pages call `requireSignIn` first: signed-out
 * visitors go to the sign-in page and come back where they were.
 */
import "server-only";
import { cookies, headers } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
import { loginPath } from "@/components/auth/next-path";
import { decide, type Rule } from "@/lib/farm/access";
import { authenticate, SESSION_COOKIE } from "@/server/auth/authenticate";
import type { Principal } from "@/server/auth/principal";
import { getFarm } from "@/server/services/farm-runtime";

export const currentPrincipal = cache(async (): Promise<Principal | null> => {
  const cookie = (await cookies()).get(SESSION_COOKIE)?.value ?? null;
  if (!cookie) return null;
  const address = (await headers()).get("x-forwarded-for");
  try {
    return await authenticate(getFarm(), { authorization: null, sessionCookie: cookie, address });
  } catch {
    return null;
  }
});

/** The signed-in caller, or a redirect to the sign-in page (which comes back to `path`). */
export async function requireSignIn(path: string): Promise<Principal> {
  const principal = await currentPrincipal();
  if (!principal) redirect(loginPath(path));
  return principal;
}

/** Whether the caller may do what `rule` allows (the page shows a refusal instead of the tool). */
export function allows(principal: Principal, rule: Rule): boolean {
  return decide(principal, rule).ok;
}

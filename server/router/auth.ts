/**
 * Signing in and out, the first-start setup, and `loom login`'s token. These are the only
 * procedures anyone may call without being signed in; their bodies are small (64 KiB limit) and
 * a sign-in spends its password check on libuv's thread pool, never the event loop.
 */
import { z } from "zod";
import { PASSWORD_MAX_LENGTH, RULES, TOKEN_SCOPES } from "../../lib/farm/access";
import { SESSION_COOKIE } from "../auth/authenticate";
import { TOKEN_MAX_DAYS, TOKEN_NAME_MAX } from "../auth/access-tokens";
import { hasPeople } from "../auth/accounts";
import { completeSetup, setupTokenValid } from "../auth/first-start";
import { meOf } from "../auth/principal";
import { signIn, signInForToken, signOut } from "../auth/sign-in";
import { actorFor, authorized, router, signedIn, type Context } from "./trpc";

const name = z.string().min(1).max(64);
const password = z.string().min(1).max(PASSWORD_MAX_LENGTH);

function setSessionCookie(ctx: Context, value: string, maxAgeSeconds: number): void {
  const attributes = [`${SESSION_COOKIE}=${encodeURIComponent(value)}`, "Path=/", "HttpOnly", "SameSite=Lax", `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`];
  if (ctx.secureCookies) attributes.push("Secure");
  ctx.responseHeaders?.append("set-cookie", attributes.join("; "));
}

export const authRouter = router({
  /** Who is signed in (null: nobody), and whether the farm still waits for its first admin. */
  me: authorized(RULES.anyone).query(async ({ ctx }) => ({ me: ctx.principal ? meOf(ctx.principal) : null, setupOpen: !(await hasPeople(ctx.farm)) })),

  signIn: authorized(RULES.anyone)
    .input(z.object({ name, password }))
    .mutation(async ({ ctx, input }) => {
      const session = await signIn(ctx.farm, input, ctx.origin);
      // The session this browser held before (another account's, or one planted in it) ends:
      // its cookie is replaced, and no copy of it outlives that.
      if (ctx.principal?.via === "session") await signOut(ctx.farm, actorFor(ctx), ctx.principal.credentialId);
      setSessionCookie(ctx, session.cookie, (session.expiresAt - ctx.farm.now()) / 1000);
      return { ok: true as const };
    }),

  signOut: authorized(RULES.signedIn).mutation(async ({ ctx }) => {
    const caller = signedIn(ctx);
    if (caller.via === "session") await signOut(ctx.farm, actorFor(ctx), caller.credentialId);
    setSessionCookie(ctx, "", 0);
    return { ok: true as const };
  }),

  /** Whether a setup address is still good (the setup page asks before showing its form). */
  setupStatus: authorized(RULES.anyone)
    .input(z.object({ token: z.string().max(200) }))
    .query(async ({ ctx, input }) => ({ valid: await setupTokenValid(ctx.farm, input.token) })),

  /** The first admin, made with the one-time setup token `loom serve` printed; signs them in. */
  setup: authorized(RULES.anyone)
    .input(z.object({ token: z.string().max(200), name, password }))
    .mutation(async ({ ctx, input }) => {
      const session = await completeSetup(ctx.farm, input, ctx.origin);
      setSessionCookie(ctx, session.cookie, (session.expiresAt - ctx.farm.now()) / 1000);
      return { ok: true as const };
    }),

  /** `loom login`: a name and password for a new personal access token (shown once). */
  tokenFromPassword: authorized(RULES.anyone)
    .input(
      z.object({
        name,
        password,
        tokenName: z.string().min(1).max(TOKEN_NAME_MAX),
        scope: z.enum(TOKEN_SCOPES).default("submit"),
        expiresInDays: z.number().int().min(1).max(TOKEN_MAX_DAYS).default(90),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const issued = await signInForToken(ctx.farm, input, ctx.origin);
      return { token: issued.token, tokenId: issued.view.id, expiresAt: issued.view.expiresAt, scope: issued.view.scope, user: input.name };
    }),
});

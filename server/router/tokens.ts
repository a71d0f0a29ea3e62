/** Personal access tokens: everyone manages their own (shown once when made); admins see and revoke anyone's. */
import { z } from "zod";
import { RULES, TOKEN_SCOPES } from "../../lib/farm/access";
import { createOwnToken, listTokens, revokeToken, TOKEN_MAX_DAYS, TOKEN_NAME_MAX } from "../auth/access-tokens";
import { actorFor, authorized, router, signedIn } from "./trpc";

const tokenId = z.object({ tokenId: z.string().min(1).max(100) });

export const tokensRouter = router({
  list: authorized(RULES.signedIn).query(({ ctx }) => listTokens(ctx.farm, signedIn(ctx), false)),
  listAll: authorized(RULES.admin).query(({ ctx }) => listTokens(ctx.farm, signedIn(ctx), true)),
  create: authorized(RULES.signedIn)
    .input(z.object({ name: z.string().min(1).max(TOKEN_NAME_MAX), scope: z.enum(TOKEN_SCOPES), expiresInDays: z.number().int().min(1).max(TOKEN_MAX_DAYS) }))
    .mutation(async ({ ctx, input }) => {
      const issued = await createOwnToken(ctx.farm, signedIn(ctx), actorFor(ctx), input);
      return { token: issued.token, view: issued.view };
    }),
  revoke: authorized(RULES.signedIn)
    .input(tokenId)
    .mutation(({ ctx, input }) => revokeToken(ctx.farm, signedIn(ctx), actorFor(ctx), input.tokenId, false)),
  revokeAny: authorized(RULES.admin)
    .input(tokenId)
    .mutation(({ ctx, input }) => revokeToken(ctx.farm, signedIn(ctx), actorFor(ctx), input.tokenId, true)),
});

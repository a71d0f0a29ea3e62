/** User accounts and roles (admins). Changes take effect on each user's next call. */
import { z } from "zod";
import { PASSWORD_MAX_LENGTH, ROLES, RULES } from "../../lib/farm/access";
import { createUser, listUsers, setUserDisabled, setUserPassword, setUserRole } from "../auth/accounts";
import { actorFor, authorized, router } from "./trpc";

const userName = z.object({ name: z.string().min(1).max(64) });

export const usersRouter = router({
  list: authorized(RULES.admin).query(({ ctx }) => listUsers(ctx.farm)),
  create: authorized(RULES.admin)
    .input(userName.extend({ role: z.enum(ROLES), password: z.string().min(1).max(PASSWORD_MAX_LENGTH) }))
    .mutation(({ ctx, input }) => createUser(ctx.farm, actorFor(ctx), input)),
  setRole: authorized(RULES.admin)
    .input(userName.extend({ role: z.enum(ROLES) }))
    .mutation(({ ctx, input }) => setUserRole(ctx.farm, actorFor(ctx), input.name, input.role)),
  setDisabled: authorized(RULES.admin)
    .input(userName.extend({ disabled: z.boolean() }))
    .mutation(({ ctx, input }) => setUserDisabled(ctx.farm, actorFor(ctx), input.name, input.disabled)),
  setPassword: authorized(RULES.admin)
    .input(userName.extend({ password: z.string().min(1).max(PASSWORD_MAX_LENGTH) }))
    .mutation(async ({ ctx, input }) => {
      await setUserPassword(ctx.farm, actorFor(ctx), input.name, input.password);
      return { ok: true as const };
    }),
});

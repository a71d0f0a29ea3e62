/** The audit log (admins): filtered pages, newest first. The export is a route: /api/audit/export. */
import { RULES } from "../../lib/farm/access";
import { listAudit, listAuditInput } from "../queries/audit";
import { authorized, router } from "./trpc";

export const auditRouter = router({
  list: authorized(RULES.admin)
    .input(listAuditInput)
    .query(({ ctx, input }) => listAudit(ctx.farm, input)),
});

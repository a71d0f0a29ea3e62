// Under `next dev` only: `loom serve` answers /api/* itself (server/api/node-server.ts) and never
// reaches Next.js with them. The same handler, with the same guards and rules.
import { apiHandler } from "@/server/api/app-handler";
import { getFarm } from "@/server/services/farm-runtime";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const handle = (request: Request) => apiHandler(getFarm())(request, { address: request.headers.get("x-forwarded-for") });
export { handle as GET, handle as POST };

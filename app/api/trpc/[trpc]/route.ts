import { handleTrpcRequest } from "@/server/api/app-handler";
import { getFarm } from "@/server/services/farm-runtime";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

const handle = (request: Request) => handleTrpcRequest(getFarm(), request);
export { handle as GET, handle as POST };

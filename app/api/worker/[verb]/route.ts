import { handleWorkerRequest } from "@/server/api/worker-api";
import { getFarm } from "@/server/services/farm-runtime";

export const runtime = "nodejs";
export const dynamic = "force-dynamic";

export const POST = (request: Request) => handleWorkerRequest(getFarm(), request);

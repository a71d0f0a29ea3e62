/**
 * `GET /api/audit/export?format=csv|jsonl&…filters` (admins): the audit log as a download, streamed
 * a page at a time (the same filters as the admin page). It is authorized like a tRPC call
 * (session cookie or bearer token) by the rule declared below; reading is not a change, so it
 * writes no audit row.
 */
import { RULES, decide } from "../../lib/farm/access";
import { SESSION_COOKIE } from "../auth/authenticate";
import { auditPages, listAuditInput, type AuditRow } from "../queries/audit";
import { resolvePrincipal } from "../router/trpc";
import { AppError } from "../context/errors";
import type { Farm } from "../context/farm";
import type { RequestInfo } from "./node-server";
import { cookieValue } from "./request-guards";

/** This route's rule, declared like a procedure's. */
export const AUDIT_EXPORT_RULE = RULES.admin;

const COLUMNS = ["id", "time", "actorKind", "actorName", "via", "action", "targetKind", "targetId", "outcome", "before", "after", "detail", "address", "userAgent"] as const;

function csvCell(value: unknown): string {
  const text = value === null || value === undefined ? "" : typeof value === "string" ? value : typeof value === "number" ? String(value) : JSON.stringify(value);
  // A cell starting with = + - @ would be a formula to a spreadsheet: quote it as text.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

function csvLine(row: AuditRow): string {
  return `${COLUMNS.map((c) => csvCell(c === "time" ? new Date(row.time).toISOString() : row[c])).join(",")}\n`;
}

export async function auditExport(farm: Farm, request: Request, info: RequestInfo): Promise<Response> {
  if (request.method !== "GET") throw new AppError("NOT_FOUND", "the audit export is a GET");
  const { principal, authError } = await resolvePrincipal(farm, {
    authorization: request.headers.get("authorization"),
    sessionCookie: cookieValue(request.headers.get("cookie"), SESSION_COOKIE),
    address: info.address,
  });
  if (authError) throw authError;
  const verdict = decide(principal, AUDIT_EXPORT_RULE);
  if (!verdict.ok) throw new AppError(verdict.status, verdict.message);
  const params = new URL(request.url).searchParams;
  const format = params.get("format") === "jsonl" ? "jsonl" : "csv";
  const raw: Record<string, unknown> = {};
  for (const key of ["actor", "actorKind", "action", "actionGroup", "target", "outcome"]) if (params.get(key)) raw[key] = params.get(key);
  for (const key of ["from", "to"]) if (params.get(key)) raw[key] = Number(params.get(key));
  const parsed = listAuditInput.omit({ before: true, limit: true }).safeParse(raw);
  if (!parsed.success) throw new AppError("BAD_REQUEST", `invalid filter: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`);
  const pages = auditPages(farm, parsed.data);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      if (format === "csv") controller.enqueue(encoder.encode(`${COLUMNS.join(",")}\n`));
    },
    async pull(controller) {
      const next = await pages.next();
      if (next.done) return controller.close();
      controller.enqueue(encoder.encode(next.value.map((row) => (format === "csv" ? csvLine(row) : `${JSON.stringify(row)}\n`)).join("")));
    },
  });
  const stamp = new Date(farm.now()).toISOString().slice(0, 19).replace(/[:T]/g, "-");
  return new Response(body, {
    headers: {
      "content-type": format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson",
      "content-disposition": `attachment; filename="loom-audit-${stamp}.${format === "csv" ? "csv" : "jsonl"}"`,
      "cache-control": "no-store",
    },
  });
}

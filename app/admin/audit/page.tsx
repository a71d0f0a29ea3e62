import type { Metadata } from "next";
import { allows, requireSignIn } from "@/app/session";
import { HydrateClient, prefetch, trpc } from "@/app/trpc-server";
import { AuditLog } from "@/components/audit/audit-log";
import { auditListInput, parseAuditFilter } from "@/components/audit/audit-filter";
import { NeedsRole } from "@/components/auth/needs-role";
import { pathWithQuery } from "@/components/auth/next-path";
import { RULES } from "@/lib/farm/access";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Audit log" };

/** Every change and sign-in attempt (admins): the filter lives in the URL, so the server prefetches the page the browser shows. */
export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const search = await searchParams;
  const me = await requireSignIn(pathWithQuery("/admin/audit", search));
  const admin = allows(me, RULES.admin);
  if (admin) await prefetch(trpc.audit.list.queryOptions(auditListInput(parseAuditFilter(search))));
  return (
    <main className="wide">
      <h1>Audit log</h1>
      <p className="lead">Who changed what, and every sign-in attempt: newest first, each written in the same transaction as the change it records.</p>
      {admin ? (
        <HydrateClient>
          <AuditLog />
        </HydrateClient>
      ) : (
        <NeedsRole role="admin" what="The audit log" yours={me.role} />
      )}
    </main>
  );
}

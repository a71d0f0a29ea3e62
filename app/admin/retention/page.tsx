import type { Metadata } from "next";
import { allows, requireSignIn } from "@/app/session";
import { HydrateClient, prefetch, trpc } from "@/app/trpc-server";
import { NeedsRole } from "@/components/auth/needs-role";
import { RetentionAdmin } from "@/components/retention/retention-admin";
import { RULES } from "@/lib/farm/access";
import { getFarm } from "@/server/services/farm-runtime";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Retention" };

/** Old finished jobs (admins): count them, then archive or delete them with their logs. */
export default async function RetentionPage() {
  const me = await requireSignIn("/admin/retention");
  const admin = allows(me, RULES.admin);
  const defaultDays = getFarm().settings.jobRetentionDays;
  if (admin) await prefetch(trpc.retention.preview.queryOptions({ olderThanDays: defaultDays }));
  return (
    <main className="wide">
      <h1>Retention</h1>
      <p className="lead">
        Finished jobs stay until an admin removes them. A job with tasks that could still run — suspended, or waiting for a worker that can run them — is not finished: cancel it first to remove it.
        Archiving writes each job, with its tasks, Sessions and log lines, to a compressed file in the data folder before removing it; deleting keeps nothing. Every removal is in the audit log.
      </p>
      {admin ? (
        <HydrateClient>
          <RetentionAdmin defaultDays={defaultDays} />
        </HydrateClient>
      ) : (
        <NeedsRole role="admin" what="Removing old jobs" yours={me.role} />
      )}
    </main>
  );
}

import type { Metadata } from "next";
import { allows, requireSignIn } from "@/app/session";
import { HydrateClient, prefetch, trpc } from "@/app/trpc-server";
import { NeedsRole } from "@/components/auth/needs-role";
import { UsersAdmin } from "@/components/users/users-admin";
import { RULES } from "@/lib/farm/access";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Users" };

/** Accounts and roles (admins). A change takes effect on each user's next call. */
export default async function UsersPage() {
  const me = await requireSignIn("/admin/users");
  const admin = allows(me, RULES.admin);
  if (admin) await prefetch(trpc.users.list.queryOptions());
  return (
    <main className="wide">
      <h1>Users</h1>
      <p className="lead">
        Who may use this farm, and with which role. Viewers read; artists also submit and act on their own jobs; wranglers act on every job; admins also manage pools, workers, users and the audit log.
      </p>
      {admin ? (
        <HydrateClient>
          <UsersAdmin />
        </HydrateClient>
      ) : (
        <NeedsRole role="admin" what="Managing users" yours={me.role} />
      )}
    </main>
  );
}

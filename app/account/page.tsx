import type { Metadata } from "next";
import { requireSignIn } from "@/app/session";
import { HydrateClient, prefetch, trpc } from "@/app/trpc-server";
import { AccountTokens } from "@/components/account/account-tokens";
import { ROLE_DESCRIPTIONS, ROLE_LABELS } from "@/lib/farm/access";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Account" };

/** Your account: who you are here, and your personal access tokens for scripts and the `loom` command. */
export default async function AccountPage() {
  const me = await requireSignIn("/account");
  await prefetch(trpc.tokens.list.queryOptions());
  return (
    <main className="wide">
      <h1>Account</h1>
      <p className="lead">
        Signed in as <strong>{me.name}</strong> ({ROLE_LABELS[me.role]}: {ROLE_DESCRIPTIONS[me.role]}). Personal access tokens let scripts and the <code>loom</code> command act as you.
      </p>
      <HydrateClient>
        <AccountTokens />
      </HydrateClient>
    </main>
  );
}

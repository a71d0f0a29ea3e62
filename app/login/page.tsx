import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { LoginForm } from "@/components/auth/login-form";
import { safeNext } from "@/components/auth/next-path";
import { getQueryClient, trpc } from "@/app/trpc-server";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in" };

/** `/login?next=/jobs`: sign in, then back to the page that sent you here (only pages of this portal). */
export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const next = safeNext((await searchParams).next);
  const { me, setupOpen } = await getQueryClient().fetchQuery(trpc.auth.me.queryOptions());
  if (me) redirect(next);
  return (
    <main className="narrow">
      <h1>Sign in to Loom</h1>
      {setupOpen ? (
        <section aria-labelledby="no-accounts">
          <h2 id="no-accounts">This farm has no accounts yet</h2>
          <p>
            Create the first admin at the one-time setup address that <code>loom serve</code> printed when it started (<code>http://…/setup?token=…</code>). Restarting <code>loom serve</code> prints a
            new one; on the server&apos;s shell, <code>loom user add NAME --role admin</code> creates an account too.
          </p>
        </section>
      ) : (
        <p className="lead">Use the account an admin of this farm made for you.</p>
      )}
      <section aria-label="Sign-in form">
        <LoginForm next={next} />
      </section>
    </main>
  );
}

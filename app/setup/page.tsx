import type { Metadata } from "next";
import Link from "next/link";
import { SetupForm } from "@/components/auth/setup-form";
import { getQueryClient, trpc } from "@/app/trpc-server";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "First-start setup" };

/** `/setup?token=…`, the one-time address `loom serve` prints while the farm has no account: the first admin. */
export default async function SetupPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = (await searchParams).token;
  const token = (Array.isArray(raw) ? raw[0] : raw) ?? "";
  const { valid } = token === "" || token.length > 200 ? { valid: false } : await getQueryClient().fetchQuery(trpc.auth.setupStatus.queryOptions({ token }));
  return (
    <main className="narrow">
      <h1>Set up this farm</h1>
      {valid ? (
        <>
          <p className="lead">Nobody has an account yet. Create the first admin: they create everyone else&apos;s accounts on the Users page.</p>
          <section aria-label="First admin">
            <SetupForm token={token} />
          </section>
        </>
      ) : (
        <section aria-labelledby="setup-invalid">
          <h2 id="setup-invalid">This setup address is not valid</h2>
          <p role="alert">
            {token === ""
              ? "It has no token. Use the whole address that loom serve printed."
              : "It was used already, or loom serve printed a newer one since (each start prints a new address while nobody has an account)."}
          </p>
          <p>
            <Link href="/login">Sign in</Link> with an existing account instead.
          </p>
        </section>
      )}
    </main>
  );
}

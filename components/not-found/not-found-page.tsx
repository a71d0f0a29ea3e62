"use client";

import Link from "next/link";
import { usePathname, useSearchParams } from "next/navigation";
import { describeMissing, type MissingKind } from "./missing";

/** The body of every not-found.tsx: what was not found, by name, and where to go instead (served with HTTP 404). */
export function NotFoundPage({ kind }: { kind: MissingKind }) {
  const missing = describeMissing(kind, usePathname(), useSearchParams());
  return (
    <main>
      <h1>{missing.title}</h1>
      <p className="lead">{missing.detail}</p>
      <Link href={missing.back.href}>{missing.back.label}</Link>
    </main>
  );
}

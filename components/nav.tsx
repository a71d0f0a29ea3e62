"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { ROLE_LABELS } from "@/lib/farm/access";
import { useMe } from "./auth/me";
import { SignOutButton } from "./auth/sign-out-button";
import { isCurrent, navLinks } from "./nav-links";

/** The portal's top navigation: the sections this caller may use, and who is signed in. */
export function Nav() {
  const pathname = usePathname();
  const me = useMe();
  return (
    <nav aria-label="Main" className="topnav">
      <Link href="/" className="brand">
        Loom
      </Link>
      <ul>
        {navLinks(me?.role ?? null).map((link) => (
          <li key={link.href}>
            <Link href={link.href} aria-current={isCurrent(pathname, link.href) ? "page" : undefined}>
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
      {me && (
        <div className="signed-in" role="group" aria-label="Signed in">
          <Link href="/account" aria-current={isCurrent(pathname, "/account") ? "page" : undefined} aria-label={`Account of ${me.name} (${ROLE_LABELS[me.role]})`}>
            <span className="who">{me.name}</span> <span className="badge tone-ready">{ROLE_LABELS[me.role]}</span>
          </Link>
          <SignOutButton />
        </div>
      )}
    </nav>
  );
}

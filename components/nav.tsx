"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const LINKS = [
  { href: "/jobs", label: "Jobs" },
  { href: "/submit", label: "Submit" },
  { href: "/templates", label: "Templates" },
  { href: "/editor", label: "Editor" },
  { href: "/pools", label: "Pools" },
  { href: "/workers", label: "Workers" },
  { href: "/overview", label: "Overview" },
] as const;

/** The portal's top navigation; the current section is marked for assistive technology too. */
export function Nav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Main" className="topnav">
      <Link href="/" className="brand">
        Loom
      </Link>
      <ul>
        {LINKS.map((link) => {
          const current = pathname === link.href || pathname.startsWith(`${link.href}/`);
          return (
            <li key={link.href}>
              <Link href={link.href} aria-current={current ? "page" : undefined}>
                {link.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}

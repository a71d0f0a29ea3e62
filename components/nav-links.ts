/**
 * The portal's sections as the top navigation lists them for a caller: everyone signed in reads
 * the farm; the admin sections are listed for admins only (others would only be told they need
 * the role: the server refuses their data anyway). Pure.
 */
import { roleAtLeast, type Role } from "@/lib/farm/access";

export interface NavLink {
  href: string;
  label: string;
}

const FARM_LINKS: readonly NavLink[] = [
  { href: "/jobs", label: "Jobs" },
  { href: "/submit", label: "Submit" },
  { href: "/templates", label: "Templates" },
  { href: "/editor", label: "Editor" },
  { href: "/pools", label: "Pools" },
  { href: "/workers", label: "Workers" },
  { href: "/overview", label: "Overview" },
];

const ADMIN_LINKS: readonly NavLink[] = [
  { href: "/admin/users", label: "Users" },
  { href: "/admin/audit", label: "Audit" },
  { href: "/admin/retention", label: "Retention" },
];

/** Nothing for a signed-out visitor (the sign-in and setup pages stand alone). */
export function navLinks(role: Role | null): NavLink[] {
  if (role === null) return [];
  // Submitting is for artists and up: a viewer is not offered a page that would refuse them.
  const farm = roleAtLeast(role, "artist") ? FARM_LINKS : FARM_LINKS.filter((l) => l.href !== "/submit");
  return roleAtLeast(role, "admin") ? [...farm, ...ADMIN_LINKS] : [...farm];
}

/** Whether `href` is the section `pathname` is in (what aria-current marks). */
export function isCurrent(pathname: string, href: string): boolean {
  return pathname === href || pathname.startsWith(`${href}/`);
}

/**
 * Where the sign-in page sends a person back to (`/login?next=…`). Only a path on this portal is
 * followed: `next=https://evil.example` or `next=//evil.example` would make the sign-in page an
 * open redirect that lends the farm's name to a phishing link. Pure.
 */

export type SearchParamsRecord = Record<string, string | string[] | undefined>;

/** The page to go to after signing in: `raw` when it is a path of this site, else the home page. */
export function safeNext(raw: string | string[] | null | undefined): string {
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value || !value.startsWith("/") || value.length > 2000) return "/";
  // "//host" and "/\host" are protocol-relative to browsers; control characters can hide either.
  // eslint-disable-next-line no-control-regex
  if (value.startsWith("//") || value.startsWith("/\\") || /[\u0000-\u001f\u007f]/.test(value)) return "/";
  try {
    const url = new URL(value, "http://portal.invalid");
    if (url.origin !== "http://portal.invalid") return "/";
    // The sign-in and setup pages never send someone back to themselves.
    if (url.pathname === "/login" || url.pathname === "/setup") return "/";
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return "/";
  }
}

/** The sign-in page's address that comes back to `path`. */
export function loginPath(path: string): string {
  const next = safeNext(path);
  return next === "/" ? "/login" : `/login?next=${encodeURIComponent(next)}`;
}

/** A page's path with its query, as the browser asked for it (what `next` should bring back). */
export function pathWithQuery(pathname: string, searchParams: SearchParamsRecord = {}): string {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(searchParams)) {
    if (value === undefined) continue;
    for (const one of Array.isArray(value) ? value : [value]) query.append(key, one);
  }
  const text = query.toString();
  return text ? `${pathname}?${text}` : pathname;
}

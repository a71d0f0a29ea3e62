/**
 * What a 404 page says was not found, read from the address alone (Next's not-found pages get no
 * params): the job, the Session in its job, the library template, or the page. Pure, so the
 * wording is tested with a table of addresses.
 */
export type MissingKind = "job" | "session" | "template" | "page";

export interface Missing {
  title: string;
  detail: string;
  /** Where to go instead. */
  back: { href: string; label: string };
}

function segment(path: string, index: number): string {
  const raw = path.split("/")[index] ?? "";
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

export function describeMissing(kind: MissingKind, pathname: string, search: URLSearchParams): Missing {
  switch (kind) {
    case "job": {
      const jobId = segment(pathname, 2);
      return {
        title: "Job not found",
        detail: `There is no job ${jobId} on this farm: the link may be mistyped, or the job was purged.`,
        back: { href: "/jobs", label: "All jobs" },
      };
    }
    case "session": {
      const jobId = segment(pathname, 2);
      const sessionId = segment(pathname, 4);
      return {
        title: "Session not found",
        detail: `Job ${jobId} has no Session ${sessionId}: the link may be mistyped, the Session may belong to another job, or its job was purged.`,
        back: { href: `/jobs/${encodeURIComponent(jobId)}`, label: `Job ${jobId}` },
      };
    }
    case "template":
      return {
        title: "Template not found",
        detail: `The library has no template ${search.get("template") ?? ""}: it may have been deleted, or the link is mistyped.`,
        back: { href: "/templates", label: "The template library" },
      };
    case "page":
      return { title: "Page not found", detail: `Loom has no page at ${pathname}.`, back: { href: "/", label: "The start page" } };
  }
}

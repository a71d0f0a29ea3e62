/**
 * A view of the job table (filters, sort, page) and its URL: views are shareable links and
 * survive reloads. Pure, so the page (server) and the table (browser) read the same URL the same
 * way. Dates are whole UTC days (the portal shows UTC everywhere); `to` includes its day.
 */
import { TASK_STATUSES, type TaskStatus } from "@/lib/farm/statuses";
import type { JobSort, ListJobsInput } from "@/server/queries/jobs";

export const SORT_KEYS = ["submittedAt", "priority", "name", "status", "submitter", "progress", "taskCount", "startedAt", "endedAt"] as const satisfies readonly JobSort[];
export const PAGE_SIZES = [25, 50, 100, 200] as const;

export interface JobView {
  statuses: TaskStatus[];
  search: string;
  submitter: string;
  minPriority: number | null;
  maxPriority: number | null;
  /** `YYYY-MM-DD` (UTC), inclusive. */
  from: string | null;
  to: string | null;
  sort: JobSort;
  direction: "asc" | "desc";
  /** 1-based. */
  page: number;
  pageSize: number;
}

export const DEFAULT_VIEW: JobView = {
  statuses: [],
  search: "",
  submitter: "",
  minPriority: null,
  maxPriority: null,
  from: null,
  to: null,
  sort: "submittedAt",
  direction: "desc",
  page: 1,
  pageSize: 50,
};

/** What a first click on a column sorts by: words A→Z, numbers and times biggest/newest first. */
const FIRST_DIRECTION: Record<JobSort, "asc" | "desc"> = {
  submittedAt: "desc",
  priority: "desc",
  name: "asc",
  status: "asc",
  submitter: "asc",
  progress: "desc",
  taskCount: "desc",
  startedAt: "desc",
  endedAt: "desc",
};

export type SearchParamsLike = URLSearchParams | Record<string, string | string[] | undefined>;

function getter(params: SearchParamsLike): (key: string) => string | undefined {
  if (params instanceof URLSearchParams) return (key) => params.get(key) ?? undefined;
  return (key) => {
    const value = params[key];
    return Array.isArray(value) ? value[0] : value;
  };
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function day(value: string | undefined): string | null {
  if (!value || !DAY.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) return null;
  return value;
}

function whole(value: string | undefined, min: number, max: number): number | null {
  if (value === undefined || !/^\d+$/.test(value)) return null;
  const n = Number(value);
  return n >= min && n <= max ? n : null;
}

/** A view from a URL's query; anything malformed falls back to its default rather than failing the page. */
export function parseJobView(params: SearchParamsLike): JobView {
  const get = getter(params);
  const statuses = (get("status") ?? "").split(",").filter((s): s is TaskStatus => (TASK_STATUSES as readonly string[]).includes(s));
  const sort = SORT_KEYS.find((k) => k === get("sort")) ?? DEFAULT_VIEW.sort;
  const dir = get("dir");
  const size = whole(get("size"), 1, 500);
  return {
    statuses: [...new Set(statuses)],
    search: (get("q") ?? "").slice(0, 200),
    submitter: (get("submitter") ?? "").slice(0, 200),
    minPriority: whole(get("pmin"), 0, 100),
    maxPriority: whole(get("pmax"), 0, 100),
    from: day(get("from")),
    to: day(get("to")),
    sort,
    direction: dir === "asc" || dir === "desc" ? dir : get("sort") === undefined ? DEFAULT_VIEW.direction : FIRST_DIRECTION[sort],
    page: whole(get("page"), 1, 1_000_000) ?? 1,
    pageSize: PAGE_SIZES.find((s) => s === size) ?? DEFAULT_VIEW.pageSize,
  };
}

/** The URL query of a view (`?…`, or "" for the default view); defaults are left out to keep links short. */
export function jobViewSearch(view: JobView): string {
  const params = new URLSearchParams();
  if (view.statuses.length > 0) params.set("status", view.statuses.join(","));
  if (view.search) params.set("q", view.search);
  if (view.submitter) params.set("submitter", view.submitter);
  if (view.minPriority !== null) params.set("pmin", String(view.minPriority));
  if (view.maxPriority !== null) params.set("pmax", String(view.maxPriority));
  if (view.from) params.set("from", view.from);
  if (view.to) params.set("to", view.to);
  if (view.sort !== DEFAULT_VIEW.sort || view.direction !== DEFAULT_VIEW.direction) {
    params.set("sort", view.sort);
    params.set("dir", view.direction);
  }
  if (view.page !== 1) params.set("page", String(view.page));
  if (view.pageSize !== DEFAULT_VIEW.pageSize) params.set("size", String(view.pageSize));
  const text = params.toString();
  return text ? `?${text}` : "";
}

const DAY_MS = 86_400_000;

/** The jobs.list input of a view. */
export function jobViewInput(view: JobView): ListJobsInput {
  const input: ListJobsInput = { sort: view.sort, direction: view.direction, offset: (view.page - 1) * view.pageSize, limit: view.pageSize };
  if (view.statuses.length > 0) input.statuses = view.statuses;
  if (view.search.trim()) input.search = view.search.trim();
  if (view.submitter) input.submitter = view.submitter;
  if (view.minPriority !== null) input.minPriority = view.minPriority;
  if (view.maxPriority !== null) input.maxPriority = view.maxPriority;
  if (view.from) input.submittedFrom = Date.parse(`${view.from}T00:00:00Z`);
  if (view.to) input.submittedTo = Date.parse(`${view.to}T00:00:00Z`) + DAY_MS;
  return input;
}

/** A changed filter shows its first page (page 3 of the old result means nothing in the new one). */
export function withFilters(view: JobView, patch: Partial<Omit<JobView, "sort" | "direction" | "page">>): JobView {
  return { ...view, ...patch, page: 1 };
}

/** A click on a column header: the same column flips its direction, another starts at its natural one. */
export function toggleSort(view: JobView, sort: JobSort): JobView {
  const direction = view.sort === sort ? (view.direction === "asc" ? "desc" : "asc") : FIRST_DIRECTION[sort];
  return { ...view, sort, direction, page: 1 };
}

export function pageCount(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

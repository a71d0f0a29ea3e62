"use client";

import { useQueries, useQuery, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import type { TaskStatus } from "@/lib/farm/statuses";
import type { TaskRowView } from "@/server/queries/jobs";
import type { TaskTableSort } from "./task-table";
import { useTRPC } from "../trpc";
import { idsAtRows, pagesForRange, pagesForRows, TASK_PAGE_SIZE } from "./task-pages";

export interface TaskRows {
  /** Rows in the list (all of the step's tasks, or those in the status filter). */
  count: number;
  /** The row at a position, when its page is loaded. */
  row: (index: number) => TaskRowView | undefined;
  /** Task ids at the given positions, fetching pages the browser does not hold. */
  idsAt: (rows: Iterable<number>) => Promise<number[]>;
  loading: boolean;
  error: string | null;
}

/**
 * A step's tasks as fixed server pages: page 0 always (it carries the total), plus the pages
 * under the visible rows with half a page of margin. Pages scrolled away stay in the cache, so
 * scrolling back is instant; a live change refetches only the pages on screen.
 */
export function useTaskRows(stepId: string, statuses: TaskStatus[] | undefined, visible: { first: number; last: number }, sort?: TaskTableSort): TaskRows {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const pageOptions = useCallback(
    // The default order asks without a sort, so it matches the page the server prefetched.
    (page: number) =>
      trpc.jobs.tasks.queryOptions({ stepId, statuses, ...(sort && !(sort.sort === "index" && sort.direction === "asc") ? sort : {}), offset: page * TASK_PAGE_SIZE, limit: TASK_PAGE_SIZE }),
    [trpc, stepId, statuses, sort],
  );
  const first = useQuery(pageOptions(0));
  const count = first.data?.total ?? 0;
  const pages = pagesForRange(visible.first, visible.last, count, TASK_PAGE_SIZE / 2).filter((p) => p !== 0);
  const rest = useQueries({ queries: pages.map(pageOptions) });

  // A handful of pages: rebuilt each render rather than memoized on a changing list of results.
  const loaded = new Map<number, TaskRowView[]>();
  if (first.data) loaded.set(0, first.data.tasks);
  pages.forEach((page, i) => {
    const data = rest[i]?.data;
    if (data) loaded.set(page, data.tasks);
  });

  const idsAt = useCallback(
    async (rows: Iterable<number>) => {
      const wanted = [...rows];
      const byPage = new Map<number, number[]>();
      for (const page of pagesForRows(wanted)) {
        const data = await queryClient.ensureQueryData(pageOptions(page));
        byPage.set(
          page,
          data.tasks.map((t) => t.id),
        );
      }
      return idsAtRows(wanted, byPage);
    },
    [queryClient, pageOptions],
  );

  return {
    count,
    row: (index) => loaded.get(Math.floor(index / TASK_PAGE_SIZE))?.[index % TASK_PAGE_SIZE],
    idsAt,
    loading: first.isPending,
    error: first.error?.message ?? rest.find((r) => r.error)?.error?.message ?? null,
  };
}

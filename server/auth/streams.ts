/**
 * Live views (SSE subscriptions) held open per user. Each user may hold at most
 * `maxStreamsPerUser` at once (a tab shows a handful; a script opening thousands is refused with
 * TOO_MANY_REQUESTS). While a stream is open its caller is checked again every few seconds, so a
 * disabled account, a revoked token or an ended session stops its live views too.
 */
import { TRPCError } from "@trpc/server";
import type { Farm } from "../services/farm";
import type { Context } from "../router/trpc";
import { authenticate } from "./authenticate";

const RECHECK_MS = 5_000;

const open = new WeakMap<Farm, Map<string, number>>();

function counts(farm: Farm): Map<string, number> {
  let map = open.get(farm);
  if (!map) open.set(farm, (map = new Map()));
  return map;
}

/** How many live views each user holds on this server (admin views and tests read it). */
export function openStreams(farm: Farm): ReadonlyMap<string, number> {
  return counts(farm);
}

export interface Stream {
  close(): void;
  watch<T>(source: AsyncIterable<T>): AsyncIterable<T>;
}

export function openStream(ctx: Context, path: string): Stream {
  const key = ctx.principal?.userId ?? `anonymous:${ctx.origin.address ?? "?"}`;
  const map = counts(ctx.farm);
  const held = map.get(key) ?? 0;
  if (held >= ctx.farm.settings.maxStreamsPerUser) {
    throw new TRPCError({ code: "TOO_MANY_REQUESTS", message: `too many live views open (${held}); close some tabs or views (${path} was refused)` });
  }
  map.set(key, held + 1);
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    const now = (map.get(key) ?? 1) - 1;
    if (now <= 0) map.delete(key);
    else map.set(key, now);
  };
  return {
    close,
    watch<T>(source: AsyncIterable<T>): AsyncIterable<T> {
      return {
        async *[Symbol.asyncIterator]() {
          let checked = Date.now();
          try {
            for await (const item of source) {
              if (ctx.credentials && Date.now() - checked > RECHECK_MS) {
                checked = Date.now();
                stillSignedIn(ctx);
              }
              yield item;
            }
          } finally {
            close();
          }
        },
      };
    },
  };
}

function stillSignedIn(ctx: Context): void {
  let ok = false;
  try {
    const now = authenticate(ctx.farm, ctx.credentials!);
    ok = now !== null && now.userId === ctx.principal?.userId && now.role === ctx.principal.role;
  } catch {
    ok = false;
  }
  if (!ok) throw new TRPCError({ code: "UNAUTHORIZED", message: "signed out, or your access changed: reload the page" });
}

/**
 * Live views (SSE subscriptions) held open per user. Each user may hold at most
 * `maxStreamsPerUser` at once (a tab shows a handful; a script opening thousands is refused with
 * TOO_MANY_REQUESTS). While a stream is open its caller is checked again whenever access changes
 * on the farm (a role, a disabled account, a revoked session or token: `accessChanged`) and every
 * few seconds (for expiries), and the stream ends at once when the caller may no longer read,
 * even while it waits for its next item.
 */
import { TRPCError } from "@trpc/server";
import type { Farm } from "../context/farm";
import type { Context } from "../router/trpc";
import { authenticate } from "./authenticate";

const RECHECK_MS = 5_000;

/** The farm event published after a change of who may do what. */
export const ACCESS_EVENT = "access";

/** Call once a change to roles, accounts, sessions or tokens has committed: open live views check their caller again. */
export function accessChanged(farm: Farm): void {
  farm.events.publish(null, ACCESS_EVENT);
}

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

/** Counts a live view against its user's limit; it is released when it ends, or when `signal` aborts (a view never read). */
export function openStream(ctx: Context, path: string, signal?: AbortSignal): Stream {
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
    signal?.removeEventListener("abort", close);
    const now = (map.get(key) ?? 1) - 1;
    if (now <= 0) map.delete(key);
    else map.set(key, now);
  };
  signal?.addEventListener("abort", close);
  return { close, watch: (source) => ({ [Symbol.asyncIterator]: () => guarded(ctx, source[Symbol.asyncIterator](), close, signal) }) };
}

/** `inner`, ended with UNAUTHORIZED as soon as its caller may no longer read (see the header). */
function guarded<T>(ctx: Context, inner: AsyncIterator<T>, release: () => void, signal: AbortSignal | undefined): AsyncIterator<T> {
  let refusal: TRPCError | null = null;
  let interrupt: ((error: TRPCError) => void) | null = null;
  let ended = false;
  // Checks may overlap (a timer tick and an access event): each reads the caller afresh, and the first refusal ends the stream.
  const check = async () => {
    if (refusal || ended) return;
    const found = await stillSignedIn(ctx);
    if (!found || refusal || ended) return;
    refusal = found;
    interrupt?.(found);
  };
  const recheck = () => void check();
  // In-process callers (Server Components, tests) hold no credential to check again.
  const timer = ctx.credentials ? setInterval(recheck, RECHECK_MS) : null;
  timer?.unref();
  const unsubscribe = ctx.credentials ? ctx.farm.events.subscribe(ACCESS_EVENT, recheck) : null;
  const end = () => {
    if (ended) return;
    ended = true;
    if (timer) clearInterval(timer);
    unsubscribe?.();
    signal?.removeEventListener("abort", end);
    release();
  };
  signal?.addEventListener("abort", end);
  const stop = () => {
    end();
    // The source may be waiting for a farm event: it finishes when the request's signal aborts.
    void inner.return?.().catch(() => undefined);
  };
  return {
    next() {
      if (refusal) {
        stop();
        return Promise.reject(refusal);
      }
      return new Promise<IteratorResult<T>>((resolve, reject) => {
        interrupt = (error) => {
          stop();
          reject(error);
        };
        inner.next().then(
          (result) => {
            interrupt = null;
            if (result.done) end();
            resolve(result);
          },
          (error: unknown) => {
            interrupt = null;
            end();
            reject(error);
          },
        );
      });
    },
    async return(value?: unknown) {
      end();
      // Refused: the source was told to return already, and may be waiting for an event (tRPC
      // awaits this before it sends the refusal).
      if (refusal) return { done: true, value: value as T };
      return (await inner.return?.(value)) ?? { done: true, value: value as T };
    },
    async throw(error?: unknown) {
      end();
      if (inner.throw) return inner.throw(error);
      throw error;
    },
  };
}

/** Null while the stream's caller is still who it was, with the same role; the refusal otherwise. */
async function stillSignedIn(ctx: Context): Promise<TRPCError | null> {
  try {
    const now = await authenticate(ctx.farm, ctx.credentials!);
    if (now !== null && now.userId === ctx.principal?.userId && now.role === ctx.principal.role) return null;
  } catch {
    // a credential refused now: fall through
  }
  return new TRPCError({ code: "UNAUTHORIZED", message: "signed out, or your access changed: reload the page" });
}

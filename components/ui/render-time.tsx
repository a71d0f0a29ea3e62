"use client";
/**
 * The time the server rendered the page at, for the browser's first render (hydration) to show
 * exactly what the server showed. Durations and "ago" texts computed from the browser's own
 * clock at hydration differ from the server's by the network time, which React reports as a
 * render mismatch (#418, issue 11); after hydration the live clock takes over.
 */
import { createContext, useContext, type ReactNode } from "react";

const RenderTime = createContext<number | null>(null);

export function RenderTimeProvider({ at, children }: { at: number; children: ReactNode }) {
  return <RenderTime.Provider value={at}>{children}</RenderTime.Provider>;
}

/** When the server rendered this page (null outside the provider: components rendered only in the browser). */
export function useRenderTime(): number | null {
  return useContext(RenderTime);
}

"use client";

import { useCallback, useEffect, useState } from "react";

const KEY = "loom.submitter";

/**
 * The artist's name, kept in this browser's localStorage so the next submission (and "My jobs")
 * knows it. Read after mount: the server renders without it, so hydration never disagrees.
 */
export function useRememberedSubmitter(): [string, (name: string) => void] {
  const [name, setName] = useState("");
  useEffect(() => {
    try {
      setName(window.localStorage.getItem(KEY) ?? "");
    } catch {
      // Storage can be off (private mode, policy): the name is then just not remembered.
    }
  }, []);
  const remember = useCallback((next: string) => {
    setName(next);
    try {
      if (next.trim() === "") window.localStorage.removeItem(KEY);
      else window.localStorage.setItem(KEY, next.trim());
    } catch {
      // As above.
    }
  }, []);
  return [name, remember];
}

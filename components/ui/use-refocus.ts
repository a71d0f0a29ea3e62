"use client";

import { useEffect, useRef } from "react";

/**
 * For a control that an action replaces with another (Disable becomes Enable): after `arm()`, the
 * next change of `value` moves focus to the button inside `ref` (once it is enabled again), so a
 * keyboard user is not dropped at the top of the page when the button they pressed disappears.
 */
export function useRefocus<T>(value: T) {
  const ref = useRef<HTMLSpanElement>(null);
  const armed = useRef(false);
  const due = useRef(false);
  const last = useRef(value);
  // Every render: the new button may still be disabled while the action finishes.
  useEffect(() => {
    if (!Object.is(last.current, value)) {
      last.current = value;
      due.current = armed.current;
      armed.current = false;
    }
    if (!due.current) return;
    const button = ref.current?.querySelector("button");
    if (button && !button.disabled) {
      due.current = false;
      button.focus();
    }
  });
  return {
    ref,
    arm: () => {
      armed.current = true;
    },
  };
}

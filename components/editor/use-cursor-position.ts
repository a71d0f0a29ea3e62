"use client";

import { useEffect, useState } from "react";
import type { editor } from "monaco-editor";

/** The editor's cursor as line and column, for the status line (and for people who cannot see it). */
export function useCursorPosition(instance: editor.IStandaloneCodeEditor | null) {
  const [position, setPosition] = useState({ lineNumber: 1, column: 1 });
  useEffect(() => {
    if (!instance) return;
    const current = instance.getPosition();
    if (current) setPosition({ lineNumber: current.lineNumber, column: current.column });
    const subscription = instance.onDidChangeCursorPosition((e) => setPosition({ lineNumber: e.position.lineNumber, column: e.position.column }));
    return () => subscription.dispose();
  }, [instance]);
  return position;
}

/**
 * SIGINT and SIGTERM for the real `loom` process (CONVENTIONS rule 7): each command decides what
 * the first one does (cancel, drain, stop cleanly) and what a second one does (quit at once).
 */

/** Calls `onSignal` with the signal's name and how many have arrived so far; returns the uninstaller. */
export function onStopSignals(onSignal: (name: NodeJS.Signals, count: number) => void): () => void {
  let count = 0;
  const handler = (name: NodeJS.Signals) => onSignal(name, ++count);
  process.on("SIGINT", handler);
  process.on("SIGTERM", handler);
  return () => {
    process.off("SIGINT", handler);
    process.off("SIGTERM", handler);
  };
}

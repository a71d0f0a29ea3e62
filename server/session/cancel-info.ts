/**
 * The notice NOTIFY_THEN_TERMINATE leaves for the action before its first SIGTERM (spec digest
 * §7.1): `cancel_info.json` in the Session working directory, saying when the grace period ends.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";

const CANCEL_INFO_FILE = "cancel_info.json";

/** `YYYY-MM-DDTHH:MM:SSZ`, the UTC format of the reference runtime's cancel notices. */
export function formatUtcSeconds(timeMs: number): string {
  return new Date(timeMs).toISOString().replace(/\.\d{3}Z$/, "Z");
}

function cancelInfoDocument(notifyEndMs: number): string {
  return `{"NotifyEnd": "${formatUtcSeconds(notifyEndMs)}"}`;
}

/**
 * Written synchronously: the action must be able to read it as soon as SIGTERM arrives.
 * Returns an error message instead of throwing; a missing notice must not stop the cancel.
 */
export function writeCancelInfo(workingDirectory: string, notifyEndMs: number): string | null {
  try {
    writeFileSync(join(workingDirectory, CANCEL_INFO_FILE), cancelInfoDocument(notifyEndMs), { mode: 0o600 });
    return null;
  } catch (error) {
    return `Could not write ${CANCEL_INFO_FILE}: ${(error as Error).message}`;
  }
}

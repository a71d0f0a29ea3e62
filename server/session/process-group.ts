/**
 * Signals for an action's whole process group. Actions are spawned as the leader of a new
 * session, so the group id is the leader's pid and `kill(-pgid)` reaches every descendant that
 * did not move itself into another group (spec digest §7.1: "the whole process tree").
 */

export type GroupSignalResult = "sent" | "gone" | "failed";

export function signalProcessGroup(pgid: number, signal: NodeJS.Signals): GroupSignalResult {
  // Windows has no process groups; it is out of scope, but this must not throw there.
  const target = process.platform === "win32" ? pgid : -pgid;
  try {
    process.kill(target, signal);
    return "sent";
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH" ? "gone" : "failed";
  }
}

/**
 * A task runs in a process group of its own (so cancels reach everything it started), which
 * also means it outlives a worker killed with SIGKILL: it would run on and do its work a second
 * time beside the worker the server gives it to next. The real worker process therefore starts
 * a small reaper (reaper-process.mjs, in a group of its own) and tells it, over a pipe, which
 * action groups are running; when the pipe closes — the worker is gone, cleanly or not — the
 * reaper kills what is left.
 */
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { processEnvironment } from "../env";
import { actionProcessGroups } from "../session/subprocess";
import { taskEnvironment } from "./task-environment";

const REAPER = fileURLToPath(new URL("./reaper-process.mjs", import.meta.url));

/**
 * Starts the reaper for this process's actions. The returned function stops it; like any end of
 * the pipe, that kills the action groups still running (none once the agent has stopped).
 */
export function startReaper(): () => void {
  if (process.platform === "win32") return () => undefined; // no process groups to leave behind
  // It needs no credential: it gets the environment a task would (an unshielded task could read its /proc/<pid>/environ).
  const reaper = spawn(process.execPath, [REAPER], { stdio: ["pipe", "ignore", "ignore"], detached: true, env: taskEnvironment(processEnvironment()) as NodeJS.ProcessEnv });
  const input = reaper.stdin!;
  input.on("error", () => undefined); // the reaper is gone: nothing more to tell it
  // Neither keeps this process alive.
  reaper.unref();
  (input as unknown as { unref?: () => void }).unref?.();
  const started = (pgid: number) => input.write(`+${pgid}\n`);
  const ended = (pgid: number) => input.write(`-${pgid}\n`);
  actionProcessGroups.on("started", started);
  actionProcessGroups.on("ended", ended);
  return () => {
    actionProcessGroups.off("started", started);
    actionProcessGroups.off("ended", ended);
    input.end();
  };
}

/**
 * Finds the program an action runs before spawning it. Actions run without a shell (spec digest
 * §7), and a bare name is looked up on the PATH of the action's own environment, never ours.
 * Resolving here (rather than leaving it to execvp) gives clear errors: spawn reports a missing
 * working directory and a missing program both as ENOENT, and falls back to `/usr/bin:/bin`
 * when PATH is absent, which would inherit something the Session did not give the action.
 */
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, resolve } from "node:path";

export type CommandResolution = { ok: true; path: string } | { ok: false; error: string };

export function resolveCommand(command: string, env: Readonly<Record<string, string>>, cwd: string): CommandResolution {
  if (!isDirectory(cwd)) return { ok: false, error: `working directory does not exist: ${cwd}` };
  if (command === "") return { ok: false, error: "command is empty" };
  // Windows is out of scope: leave lookup (PATHEXT and all) to the platform.
  if (process.platform === "win32") return { ok: true, path: command };

  if (command.includes("/")) {
    const path = resolve(cwd, command);
    const state = executableState(path);
    if (state === "executable") return { ok: true, path };
    return { ok: false, error: state === "not-executable" ? `permission denied: ${command}` : `command not found: ${command}` };
  }

  let deniedPath: string | null = null;
  const directories = env.PATH === undefined ? [] : env.PATH.split(delimiter);
  for (const directory of directories) {
    // An empty PATH entry means the current directory, which for the action is its cwd.
    const path = resolve(cwd, directory, command);
    const state = executableState(path);
    if (state === "executable") return { ok: true, path };
    if (state === "not-executable") deniedPath ??= path;
  }
  if (deniedPath) return { ok: false, error: `permission denied: ${deniedPath}` };
  return { ok: false, error: `command not found: ${command}` };
}

/** For the rare exec failure after a successful lookup (the file changed, or the kernel refused it). */
export function describeSpawnError(command: string, error: NodeJS.ErrnoException): string {
  if (error.code === "ENOENT") return `command not found: ${command}`;
  if (error.code === "EACCES") return `permission denied: ${command}`;
  return `failed to start ${command}: ${error.message}`;
}

// Synchronous on purpose: a lookup is a handful of local stat calls (microseconds each), while
// going through the libuv thread pool costs a round trip per PATH entry, about 1.5 ms per action
// with a long PATH (bench:session).
function executableState(path: string): "executable" | "not-executable" | "missing" {
  try {
    if (!statSync(path).isFile()) return "missing";
  } catch {
    return "missing";
  }
  try {
    accessSync(path, constants.X_OK);
    return "executable";
  } catch {
    return "not-executable";
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

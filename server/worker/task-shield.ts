/**
 * The task shield (issue 10: no credential reaches a file a task can read). Every action of a
 * shielded worker runs inside fresh user, mount and PID namespaces made by util-linux `unshare`:
 *
 * - one `mount -a` of a generated fstab masks the hidden paths (shield-masks.ts): the worker's
 *   token file, its `--hide` paths, the `loom login` folder; the Session root, and a hidden
 *   folder around it, are covered whole but for the action's own working directory;
 * - /proc is the namespace's own, so no process outside (the worker, the server) can be read;
 * - PID 1 is a small sh script that runs the command as its child and exits with its status: it
 *   keeps handlers (not SIG_IGN, which the command would inherit) for the signals the worker
 *   sends the process group, which the kernel would otherwise not deliver to a namespace's init;
 *   when it exits, everything left in the namespace is killed;
 * - the command runs in a nested user namespace mapped back to the worker's uid and gid: it is
 *   the worker's user, and holds no capability over the mounts, so it cannot unmount a mask.
 *
 * Everything privileged in that chain (unshare, sh, mount) runs with a fixed environment: with
 * the task's, a job could set LD_PRELOAD and run code of its own with the namespace's
 * capabilities. The task's variables travel under inert names and GNU `env -i -S` gives them
 * their real names in the last step, so their values never appear on a command line other users
 * can read in /proc.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { accessSync, closeSync, constants, openSync, realpathSync, unlinkSync, writeSync } from "node:fs";
import { delimiter, join } from "node:path";
import type { Launch, ProcessLauncher } from "../session/subprocess";
import { fstabFor, mountsFor } from "./shield-masks";

/** The fstab arrives as fd 3 (an unlinked file: nothing is left behind, even by a killed worker). */
const PID1_SCRIPT = [
  "trap 'stop=1' HUP INT QUIT TERM",
  "mount=$1 unshare=$2 uid=$3 gid=$4",
  "shift 4",
  '"$mount" -a -c -T /proc/self/fd/3 || { [ -z "$stop" ] || exit 143; echo "loom: the task shield could not hide the worker\'s files (mount -a failed)" >&2; exit 125; }',
  "exec 3<&-",
  '[ -z "$stop" ] || exit 143',
  '"$unshare" --user --map-user="$uid" --map-group="$gid" -- "$@"',
  "exit $?",
].join("\n");

/** The only environment of the privileged steps, besides the task's variables under inert names. */
const SHIELD_PATH = "/usr/sbin:/usr/bin:/sbin:/bin";
const VALUE_PREFIX = "LOOM_SHIELD_V";
const PROBE_LIMIT_MS = 15_000;

interface Programs {
  unshare: string;
  mount: string;
  env: string;
  sh: string;
  true: string;
}

export interface TaskShieldOptions {
  /** Paths tasks must not read (missing ones are skipped, every action looks again). */
  hidden: readonly string[];
  /** Where the worker's Session directories are made: a real path that exists. */
  sessionRoot: string;
  /** Where to look for unshare, mount and env (the worker's PATH). */
  searchPath?: string;
}

export class TaskShield {
  private readonly uid = process.getuid?.() ?? 0;
  private readonly gid = process.getgid?.() ?? 0;

  private constructor(
    private readonly options: TaskShieldOptions,
    private readonly programs: Programs,
  ) {}

  /** The shield, or why this host cannot have one (before trying it: see probe()). */
  static create(options: TaskShieldOptions): TaskShield | { unavailable: string } {
    if (process.platform !== "linux") return { unavailable: "it needs Linux namespaces" };
    const search = [...(options.searchPath ?? "").split(delimiter), ...SHIELD_PATH.split(":")].filter((d) => d.startsWith("/"));
    const programs: Partial<Programs> = { sh: "/bin/sh" };
    for (const name of ["unshare", "mount", "env", "true"] as const) {
      const found = search.map((d) => join(d, name)).find(isExecutable);
      if (!found) return { unavailable: `${name} (util-linux / coreutils) not found` };
      programs[name] = found;
    }
    return new TaskShield(options, programs as Programs);
  }

  readonly launcher: ProcessLauncher = (program, { cwd }) => this.launch(program, cwd);

  /** Runs `true` through the shield (with a variable: env -S too); null when it works, else why not (the first line it printed). */
  async probe(): Promise<string | null> {
    let launch: Launch;
    try {
      launch = this.launch({ path: this.programs.true, args: [], env: { LOOM_SHIELD_PROBE: "1" } }, this.options.sessionRoot);
    } catch (error) {
      return (error as Error).message;
    }
    return new Promise((resolve) => {
      let child: ChildProcess;
      try {
        const stdio: Array<"ignore" | "pipe" | number> = ["ignore", "pipe", "pipe", ...(launch.fds ?? [])];
        child = spawn(launch.path, [...launch.args], { cwd: this.options.sessionRoot, env: { ...launch.env } as NodeJS.ProcessEnv, stdio });
      } catch (error) {
        return resolve((error as Error).message);
      } finally {
        for (const fd of launch.fds ?? []) closeSync(fd);
      }
      let output = "";
      const collect = (chunk: Buffer) => (output += chunk.toString("utf8"));
      child.stdout?.on("data", collect);
      child.stderr?.on("data", collect);
      const timer = setTimeout(() => child.kill("SIGKILL"), PROBE_LIMIT_MS);
      child.once("error", (error) => resolve(error.message));
      child.once("close", (code, signal) => {
        clearTimeout(timer);
        const said = output.trim().split("\n")[0]?.trim();
        if (code === 0) resolve(null);
        else resolve(said || (signal === "SIGKILL" ? `it did not finish within ${PROBE_LIMIT_MS / 1000} s` : `it exited with ${code ?? signal}`));
      });
    });
  }

  private launch(program: Launch, cwd: string): Launch {
    // env takes an operand with "=" for a variable, never for the program.
    if (program.path.includes("=")) throw new Error(`the task shield cannot run a program whose path holds '=' (${program.path})`);
    const { assignments, env } = inertEnvironment(program.env);
    const fstab = this.fstab(fstabFor(mountsFor(this.options.hidden, this.options.sessionRoot, realpathSync(cwd))));
    const { unshare, mount, sh } = this.programs;
    return {
      path: unshare,
      args: [
        ...["--user", "--map-root-user", "--mount", "--pid", "--fork", "--kill-child", "--mount-proc", "--"],
        ...[sh, "-c", PID1_SCRIPT, "loom-shield", mount, unshare, String(this.uid), String(this.gid)],
        ...[this.programs.env, "-i", ...(assignments ? ["-S", assignments] : []), program.path, ...program.args],
      ],
      env,
      fds: [fstab],
    };
  }

  /**
   * The fstab as an open file that no longer has a name: made in the Session root (the
   * worker's own folder) and unlinked at once, it is read through /proc/self/fd/3.
   */
  private fstab(text: string): number {
    const path = join(this.options.sessionRoot, `.loom-shield-${randomBytes(8).toString("hex")}.fstab`);
    const fd = openSync(path, "wx", 0o600);
    try {
      writeSync(fd, text);
      return fd;
    } catch (error) {
      closeSync(fd);
      throw error;
    } finally {
      unlinkSync(path);
    }
  }
}

/**
 * The task's variables as LOOM_SHIELD_V<n>=value, and the `env -S` text that names them again
 * ("NAME=${LOOM_SHIELD_V<n>}" …: env substitutes each value whole, without splitting it).
 */
function inertEnvironment(variables: Readonly<Record<string, string>>): { assignments: string; env: Record<string, string> } {
  const env: Record<string, string> = { PATH: SHIELD_PATH, LC_ALL: "C" };
  const words: string[] = [];
  Object.entries(variables).forEach(([name, value], index) => {
    env[`${VALUE_PREFIX}${index}`] = value;
    words.push(`"${quoteName(name)}=\${${VALUE_PREFIX}${index}}"`);
  });
  return { assignments: words.join(" "), env };
}

const NAME_ESCAPES: Record<string, string> = { "\\": "\\\\", '"': '\\"', $: "\\$", "\t": "\\t", "\n": "\\n", "\r": "\\r", "\f": "\\f", "\v": "\\v" };

function quoteName(name: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what the name escapes
  return name.replace(/[\x00-\x1f\x7f\\"$]/g, (c) => {
    const escaped = NAME_ESCAPES[c];
    if (escaped === undefined) throw new Error(`the task shield cannot pass the variable ${JSON.stringify(name)} (a control character in its name)`);
    return escaped;
  });
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

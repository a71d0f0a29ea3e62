/**
 * What the task shield (task-shield.ts) mounts in an action's namespace, as one fstab for
 * `mount -a -c -T`: a hidden file gets /dev/null bound over it, a hidden directory an empty
 * read-only tmpfs.
 *
 * A directory that holds the action's working directory (the Session root, always; a hidden
 * folder around it, like the data folder `loom serve` hides) is covered whole by a small empty
 * tmpfs, and only the working directory is mounted back into it. Masking such a folder entry by
 * entry instead would miss what appears later: a token file replaced by rename (a rotation), the
 * database's -wal after a server restart, another Session of the same worker.
 *
 * Paths must be real paths (mount -c takes them as they are). Symbolic links inside a covered
 * folder are covered with it; a hidden path that is a link is followed to what it names.
 */
import { realpathSync, statSync } from "node:fs";
import { sep } from "node:path";

export type ShieldMount =
  /** /dev/null over a hidden file. */
  | { kind: "file"; path: string }
  /** An empty read-only tmpfs over a hidden directory. */
  | { kind: "directory"; path: string }
  /** An empty tmpfs over a directory that holds the working directory. */
  | { kind: "cover"; path: string }
  /** The working directory, mounted back inside its cover. */
  | { kind: "working-directory"; path: string };

type Mask = { kind: "file" | "directory"; path: string };

/**
 * The mounts, in order, for an action working in `cwd` (a real path) of a worker hiding
 * `hidden` (missing paths skipped) with its Sessions in `sessionRoot` (a real path).
 */
export function mountsFor(hidden: readonly string[], sessionRoot: string, cwd: string): ShieldMount[] {
  const masks: Mask[] = [];
  for (const given of hidden) {
    const found = existing(given);
    if (found !== null) masks.push(found);
  }
  if (cwd !== sessionRoot && isWithin(cwd, sessionRoot)) masks.push({ path: sessionRoot, kind: "directory" });
  const mounts: ShieldMount[] = [];
  let covered = false;
  for (const mask of outermost(masks.filter((m) => !isWithin(m.path, cwd)))) {
    const holdsCwd = mask.kind === "directory" && isWithin(cwd, mask.path);
    covered ||= holdsCwd;
    mounts.push(holdsCwd ? { kind: "cover", path: mask.path } : mask);
  }
  if (covered) mounts.push({ kind: "working-directory", path: cwd });
  // Hidden paths inside the working directory itself (unusual) go on top of it.
  mounts.push(...outermost(masks.filter((m) => m.path !== cwd && isWithin(m.path, cwd))));
  return mounts;
}

/** One fstab(5) line per mount, paths escaped as fstab needs. */
export function fstabFor(mounts: readonly ShieldMount[]): string {
  return mounts.map((mount) => `${FSTAB_LINE[mount.kind](fstabField(mount.path))}\n`).join("");
}

const FSTAB_LINE: Record<ShieldMount["kind"], (path: string) => string> = {
  file: (path) => `/dev/null ${path} none bind 0 0`,
  directory: (path) => `loom-shield ${path} tmpfs ro,nosuid,nodev,noexec,mode=0555 0 0`,
  // Writable so mount can make the way back to the working directory in it; small, as nothing else belongs there.
  cover: (path) => `loom-shield ${path} tmpfs rw,nosuid,nodev,noexec,size=16k,nr_inodes=64,mode=0755 0 0`,
  // mount runs in the action's working directory, which the cover has just hidden: its own
  // /proc/self/cwd still leads there (mount -c hands the path to the kernel as it is).
  "working-directory": (path) => `/proc/self/cwd ${path} none bind,X-mount.mkdir 0 0`,
};

/** Octal escapes for whitespace, `\` and `#` (and other control characters). */
export function fstabField(path: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what fstab escapes
  return path.replace(/[\x00-\x20\x7f\\#]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, "0")}`);
}

/** `path` is `dir` or inside it. */
export function isWithin(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

function existing(given: string): Mask | null {
  try {
    const path = realpathSync(given);
    return { path, kind: statSync(path).isDirectory() ? "directory" : "file" };
  } catch {
    return null; // missing: nothing to mask there
  }
}

/** Sorted, without duplicates or masks inside a masked directory (their path no longer exists to mount on). */
function outermost(masks: readonly Mask[]): Mask[] {
  const sorted = [...new Map(masks.map((m) => [m.path, m])).values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const kept: Mask[] = [];
  for (const mask of sorted) {
    if (!kept.some((outer) => outer.kind === "directory" && isWithin(mask.path, outer.path))) kept.push(mask);
  }
  return kept;
}

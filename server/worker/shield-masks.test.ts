/**
 * What the task shield mounts (shield-masks.ts), on real folders: hidden files and folders are
 * masked, a folder holding the working directory (the Session root; the data folder around it)
 * is covered whole with only the working directory mounted back, and the fstab escapes what
 * fstab(5) cannot hold literally.
 */
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fstabField, fstabFor, mountsFor } from "./shield-masks";
import { tempRoot } from "../session/session-test-support";
import { dataFolder } from "./shield-test-support";

describe("mountsFor", () => {
  it("covers a hidden folder holding the Session root whole, then mounts the working directory back", () => {
    const f = dataFolder();
    const cwd = join(f.sessionRoot, "session-1");
    mkdirSync(cwd);
    expect(mountsFor([f.poolToken, f.data, f.configDir], f.sessionRoot, cwd)).toEqual([
      { kind: "directory", path: f.configDir },
      { kind: "cover", path: f.data },
      { kind: "working-directory", path: cwd },
    ]);
  });

  it("always covers the Session root around the working directory: other Sessions are out of sight", () => {
    const f = dataFolder();
    const cwd = join(f.sessionRoot, "session-1");
    mkdirSync(cwd);
    expect(mountsFor([f.poolToken], f.sessionRoot, cwd)).toEqual([
      { kind: "file", path: f.poolToken },
      { kind: "cover", path: f.sessionRoot },
      { kind: "working-directory", path: cwd },
    ]);
  });

  it("a working directory outside the Session root and the hidden paths needs no cover", () => {
    const f = dataFolder();
    expect(mountsFor([f.poolToken, f.configDir, join(f.data, "no-such-file")], f.sessionRoot, tempRoot())).toEqual([
      { kind: "directory", path: f.configDir },
      { kind: "file", path: f.poolToken },
    ]);
  });

  it("follows a hidden path that is a link to what it names", () => {
    const f = dataFolder();
    const link = join(f.data, "..", "link-to-config");
    symlinkSync(f.configDir, link);
    expect(mountsFor([link], f.sessionRoot, f.sessionRoot)).toEqual([{ kind: "directory", path: f.configDir }]);
  });

  it("a hidden path inside the working directory goes on top of it", () => {
    const f = dataFolder();
    const cwd = join(f.sessionRoot, "session-1");
    mkdirSync(join(cwd, "cache"), { recursive: true });
    expect(mountsFor([join(cwd, "cache"), cwd], f.sessionRoot, cwd)).toEqual([
      { kind: "cover", path: f.sessionRoot },
      { kind: "working-directory", path: cwd },
      { kind: "directory", path: join(cwd, "cache") },
    ]);
  });
});

describe("fstabFor", () => {
  it("one line per mount: /dev/null, a read-only tmpfs, a small cover, the working directory through mount's own cwd", () => {
    expect(
      fstabFor([
        { kind: "file", path: "/srv/pool.token" },
        { kind: "directory", path: "/home/u/.config/loom" },
        { kind: "cover", path: "/srv/data" },
        { kind: "working-directory", path: "/srv/data/sessions/w1/s-1" },
      ]),
    ).toBe(
      [
        "/dev/null /srv/pool.token none bind 0 0",
        "loom-shield /home/u/.config/loom tmpfs ro,nosuid,nodev,noexec,mode=0555 0 0",
        "loom-shield /srv/data tmpfs rw,nosuid,nodev,noexec,size=16k,nr_inodes=64,mode=0755 0 0",
        "/proc/self/cwd /srv/data/sessions/w1/s-1 none bind,X-mount.mkdir 0 0",
        "",
      ].join("\n"),
    );
  });

  it.each([
    ["/a b", "/a\\040b"],
    ["/tab\there", "/tab\\011here"],
    ["/new\nline", "/new\\012line"],
    ["/back\\slash", "/back\\134slash"],
    ["/#hash", "/\\043hash"],
    ["/plain-é", "/plain-é"],
  ])("escapes %j as %j", (path, field) => {
    expect(fstabField(path)).toBe(field);
  });
});

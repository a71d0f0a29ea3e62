/**
 * `loom serve` as a real process (`node bin/loom.mjs serve --headless --workers 0 --port 0`): what
 * it does to its data folder, what it prints on a first and a later start, its plain-HTTP warning,
 * and a data folder it cannot use. The tests run as root, which ignores file permissions, so a
 * read-only or full disk is made for real in a user and mount namespace (`unshare -Urm`).
 */
import { createHash } from "node:crypto";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { slowTemplate } from "../checks/check-test-support";
import { runLoom, startServe, tempTree, type ServingLoom } from "./cli-test-support";
import { farmClient } from "./farm-client";

const PASSWORD = "a long enough password\n";

const trees: Array<{ remove(): void }> = [];
const servers: ServingLoom[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.stop();
  for (const tree of trees.splice(0)) tree.remove();
});

function scratch(): string {
  const tree = tempTree();
  trees.push(tree);
  return tree.dir;
}

async function serve(dataDir: string, cwd: string, env: Record<string, string> = {}, args: string[] = []): Promise<ServingLoom> {
  const server = await startServe(dataDir, { cwd, env, args });
  servers.push(server);
  return server;
}

async function stop(server: ServingLoom): Promise<number | null> {
  servers.splice(servers.indexOf(server), 1);
  return server.stop();
}

/** Every entry of the data folder (and the folder itself) with its permission bits, as octal text. */
function modes(dataDir: string): Record<string, string> {
  const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);
  const out: Record<string, string> = { ".": mode(dataDir) };
  for (const name of readdirSync(dataDir).sort()) out[name] = mode(join(dataDir, name));
  return out;
}

const SECURED = { ".": "700", "local-admin.token": "600", "local-pool.token": "600", "local-workers.json": "600", "loom.db": "600", "loom.db-shm": "600", "loom.db-wal": "600" };
const SETUP_ADDRESS = /No accounts yet\. Create the first admin at this one-time address[^\n]*\n {2}(http:\/\/127\.0\.0\.1:\d+\/setup\?token=(loom_setup_\S+))\n/;

describe("loom serve's data folder", () => {
  it("is 0700 with the database and token files 0600, also when they were wider; the setup address is printed until someone has an account", async () => {
    const dir = scratch();
    const data = join(dir, "data");
    const first = await serve(data, dir);
    expect(modes(data)).toEqual(SECURED);
    expect(await stop(first)).toBe(0);
    expect(first.stdout()).toMatch(SETUP_ADDRESS);

    // Someone widened everything, and another connection holds the database open (so its -wal and -shm exist too).
    const holder = new Database(join(data, "loom.db"));
    holder.prepare("SELECT COUNT(*) FROM users").get();
    chmodSync(data, 0o755);
    for (const name of readdirSync(data)) chmodSync(join(data, name), 0o644);
    expect(modes(data)).toEqual({ ".": "755", "local-admin.token": "644", "local-pool.token": "644", "local-workers.json": "644", "loom.db": "644", "loom.db-shm": "644", "loom.db-wal": "644" });
    const added = await runLoom(["user", "add", "first-admin", "--role", "admin", "--password-stdin", "--data", data], { cwd: dir, stdin: PASSWORD });
    expect(added).toMatchObject({ code: 0, stdout: "Created first-admin (admin). They sign in on the portal, or with 'loom login'.\n" });

    const second = await serve(data, dir);
    holder.close();
    expect(modes(data)).toEqual(SECURED);
    expect(await stop(second)).toBe(0);
    // Everything it printed, from start to stop.
    expect(second.stdout()).toMatch(/^Loom is serving at http:\/\/127\.0\.0\.1:\d+ \(data in .*\)\nStopping: [^\n]*\nLoom stopped\.\n$/);
  }, 240_000);

  it("LOOM_SETUP_TOKEN presets the setup address's token, and the server takes it", async () => {
    const dir = scratch();
    const preset = "loom_setup_preset-for-an-automated-install";
    const server = await serve(join(dir, "data"), dir, { LOOM_SETUP_TOKEN: preset });
    const anonymous = farmClient(server.url, null);
    expect(await anonymous.auth.setupStatus.query({ token: preset })).toEqual({ valid: true });
    expect(await anonymous.auth.setupStatus.query({ token: `${preset}x` })).toEqual({ valid: false });
    await stop(server);
    expect(SETUP_ADDRESS.exec(server.stdout())?.[1]).toBe(`${server.url}/setup?token=${preset}`);
  }, 120_000);

  it("--host 0.0.0.0 warns that it serves plain HTTP, unless LOOM_PUBLIC_URL is an https address", async () => {
    const dir = scratch();
    const data = join(dir, "data");
    const plain = await serve(data, dir, {}, ["--host", "0.0.0.0"]);
    await stop(plain);
    expect(plain.stderr()).toMatch(
      /^loom serve: warning: serving on 0\.0\.0\.0 over plain HTTP: passwords, session cookies and tokens would cross the network in clear\. Put Loom behind an HTTPS reverse proxy and set LOOM_PUBLIC_URL=https:\/\/… /m,
    );
    const proxied = await serve(data, dir, { LOOM_PUBLIC_URL: "https://farm.example.com" }, ["--host", "0.0.0.0"]);
    await stop(proxied);
    expect(proxied.stderr()).toBe("");
    const loopback = await serve(data, dir);
    await stop(loopback);
    expect(loopback.stderr()).toBe("");
  }, 180_000);

  it("exits 0 on SIGTERM once it has served a submission (nothing it started keeps it alive)", async () => {
    const dir = scratch();
    const data = join(dir, "data");
    const server = await serve(data, dir);
    const admin = farmClient(server.url, readFileSync(join(data, "local-admin.token"), "utf8").trim());
    const submitted = await admin.jobs.submit.mutate({
      template: { text: "specificationVersion: jobtemplate-2023-09\nname: J\nsteps:\n- name: S\n  script:\n    actions:\n      onRun:\n        command: echo\n", format: "yaml" },
    });
    expect(submitted.ok).toBe(true);
    // stop() kills it after 30 s; a process killed so has no exit code.
    expect(await stop(server)).toBe(0);
  }, 120_000);

  it("exits 0 on SIGTERM while a template check is still running: the check answers that the server is stopping", async () => {
    const dir = scratch();
    const data = join(dir, "data");
    // A budget far longer than stop() waits before it kills the server.
    const server = await serve(data, dir, { LOOM_CHECK_TIMEOUT_SECONDS: "3600" });
    const admin = farmClient(server.url, readFileSync(join(data, "local-admin.token"), "utf8").trim());
    const preview = admin.jobs.preview.mutate({ template: { text: slowTemplate(), format: "yaml" } }).catch((error: Error) => error);
    // The check has its thread once the request is in; give it a moment to get there.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await stop(server)).toBe(0);
    expect(await preview).toMatchObject({ ok: false, errors: [{ message: expect.stringMatching(/was stopped: the server is stopping/) }] });
  }, 120_000);

  it("a restart does not undo a rotation of the local pool's token, not even with the old one in LOOM_POOL_TOKEN", async () => {
    const dir = scratch();
    const data = join(dir, "data");
    const poolFile = join(data, "local-pool.token");
    const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
    const currentHash = () => {
      const db = new Database(join(data, "loom.db"), { readonly: true });
      try {
        return db.prepare<[], { token_hash: string }>("SELECT token_hash FROM pools WHERE name = 'default'").get()?.token_hash;
      } finally {
        db.close();
      }
    };

    const first = await serve(data, dir, { LOOM_ROTATION_GRACE_MINUTES: "0" });
    const old = readFileSync(poolFile, "utf8").trim();
    const admin = farmClient(first.url, readFileSync(join(data, "local-admin.token"), "utf8").trim());
    const pool = (await admin.pools.list.query()).find((p) => p.name === "default");
    expect(pool).toBeDefined();
    await admin.pools.rotateToken.mutate({ poolId: pool!.id });
    await stop(first);
    const rotated = readFileSync(poolFile, "utf8").trim();
    expect(rotated).not.toBe(old);
    expect(currentHash()).toBe(sha256(rotated));

    const second = await serve(data, dir);
    await stop(second);
    expect(second.stderr()).toBe("");
    expect(currentHash()).toBe(sha256(rotated));

    const third = await serve(data, dir, { LOOM_POOL_TOKEN: old });
    await stop(third);
    expect(third.stderr()).toBe(`loom serve: LOOM_POOL_TOKEN is not the local pool's token (it only counts on a data folder's first start; the current one is in ${poolFile})\n`);
    expect({ hash: currentHash(), file: readFileSync(poolFile, "utf8").trim() }).toEqual({ hash: sha256(rotated), file: rotated });
  }, 240_000);
});

/** Whether this machine lets an unprivileged process make a user and mount namespace. */
const namespaces = spawnSync("unshare", ["-Urm", "true"]).status === 0;
const NO_NAMESPACES = "skipped: user namespaces are unavailable here (`unshare -Urm true` failed), so a read-only or full disk cannot be simulated as root";

/** `loom ARGS…` inside a fresh mount namespace after `setup` (a shell snippet in which "$@" is `node bin/loom.mjs`). */
function inNamespace(setup: string, args: string[], cwd: string, mountDir: string) {
  const quoted = args.map((arg) => `'${arg.replaceAll("'", "'\\''")}'`).join(" ");
  return runLoom([], { cwd, env: { MOUNT_DIR: mountDir }, wrap: ["unshare", "-Urm", "sh", "-c", `${setup} && exec "$@" ${quoted}`, "sh"] });
}

describe("a data folder loom serve cannot use: one line and exit 1", () => {
  it("a full disk, for a new data folder and for one holding a database", async (ctx) => {
    if (!namespaces) ctx.skip(NO_NAMESPACES);
    const dir = scratch();
    const mount = join(dir, "disk");
    mkdirSync(mount);
    const serveArgs = ["serve", "--headless", "--workers", "0", "--port", "0", "--data", join(mount, "data")];
    const fresh = await inNamespace('mount -t tmpfs -o size=64k tmpfs "$MOUNT_DIR"', serveArgs, dir, mount);
    expect(fresh).toEqual({
      code: 1,
      stdout: "",
      stderr: expect.stringMatching(/^loom serve: the data folder \S+\/disk\/data is on a full disk \(\d+ KiB free\): free some space, or give another folder with --data\n$/),
    });

    const fill = [
      'mount -t tmpfs -o size=4m tmpfs "$MOUNT_DIR"',
      `printf '${PASSWORD.trim()}\\n' | "$@" user add first-admin --role admin --password-stdin --data "$MOUNT_DIR/data" >/dev/null`,
      '{ dd if=/dev/zero of="$MOUNT_DIR/fill" bs=64k 2>/dev/null; true; }',
    ].join(" && ");
    const full = await inNamespace(fill, serveArgs, dir, mount);
    expect(full).toEqual({ code: 1, stdout: "", stderr: expect.stringMatching(/^loom serve: the data folder \S+\/disk\/data is on a full disk \(\d+ KiB free\)[^\n]*\n$/) });
  }, 120_000);

  it("a read-only data folder, and a new one on a read-only disk", async (ctx) => {
    if (!namespaces) ctx.skip(NO_NAMESPACES);
    const dir = scratch();
    const disk = join(dir, "disk");
    const data = join(disk, "data");
    expect((await runLoom(["user", "add", "first-admin", "--role", "admin", "--password-stdin", "--data", data], { cwd: dir, stdin: PASSWORD })).code).toBe(0);
    const readOnly = 'mount --bind "$MOUNT_DIR" "$MOUNT_DIR" && mount -o remount,bind,ro "$MOUNT_DIR"';
    const existing = await inNamespace(readOnly, ["serve", "--headless", "--workers", "0", "--port", "0", "--data", data], dir, disk);
    expect(existing).toEqual({ code: 1, stdout: "", stderr: `loom serve: the data folder ${data} is on a read-only file system\n` });
    const fresh = await inNamespace(readOnly, ["serve", "--headless", "--workers", "0", "--port", "0", "--data", join(disk, "new")], dir, disk);
    expect(fresh).toEqual({ code: 1, stdout: "", stderr: `loom serve: the data folder ${join(disk, "new")} is on a read-only file system\n` });
  }, 120_000);
});

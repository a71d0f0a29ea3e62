/**
 * `loom user …` on a real data folder: accounts made, listed, changed, each change audited as the
 * shell user who ran it; the refusals (bad role, short password, the last admin, no database, no
 * way to read a password) with their exit codes.
 */
import { spawn, spawnSync } from "node:child_process";
import { statSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { verifyPassword } from "../auth/passwords";
import { LOOM_BIN, loomEnv, runCli, tempTree } from "./cli-test-support";
import { osUser } from "./os-user";

const tree = tempTree();
afterAll(tree.remove);
const data = join(tree.dir, "farm-data");
const user = (args: string[], stdin?: string) => runCli(["user", ...args, "--data", data], tree.dir, stdin);

function database<T>(read: (db: Database.Database) => T): T {
  const db = new Database(join(data, "loom.db"), { readonly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

describe("loom user", () => {
  it("adds, lists, changes role, disables, enables and sets passwords, each audited as shell:<OS user>", async () => {
    expect(await user(["add", "ada", "--role", "admin", "--password-stdin"], "first admin's password\n")).toMatchObject({
      code: 0,
      out: "Created ada (admin). They sign in on the portal, or with 'loom login'.",
    });
    expect((statSync(data).mode & 0o777).toString(8)).toBe("700");
    expect((await user(["add", "bob", "--role", "artist", "--password-stdin"], "an artist's password")).code).toBe(0);

    expect((await user(["set-role", "bob", "wrangler"])).out).toBe("bob is now a wrangler (from their next request on).");
    expect((await user(["disable", "bob"])).out).toBe("bob is disabled: their sessions and tokens are revoked.");
    const listed = await user(["list"]);
    expect(listed.lines).toEqual([
      expect.stringMatching(/^NAME +ROLE +KIND +STATE +LAST ACTIVE$/),
      expect.stringMatching(/^ada +admin +person +enabled +never$/),
      expect.stringMatching(/^bob +wrangler +person +disabled +never$/),
    ]);
    expect((await user(["enable", "bob"])).out).toBe("bob is enabled; tokens revoked while disabled stay revoked.");
    expect((await user(["set-password", "bob", "--password-stdin"], "a brand new password\r\n")).out).toBe("bob's password is set; their browser sessions were signed out.");

    const json = JSON.parse((await user(["list", "--json"])).out) as Array<{ name: string; role: string; disabled: boolean }>;
    expect(json.map(({ name, role, disabled }) => ({ name, role, disabled }))).toEqual([
      { name: "ada", role: "admin", disabled: false },
      { name: "bob", role: "wrangler", disabled: false },
    ]);
    const hash = database((db) => db.prepare<[], { password_hash: string }>("SELECT password_hash FROM users WHERE name = 'bob'").get()!.password_hash);
    expect([await verifyPassword("a brand new password", hash), await verifyPassword("an artist's password", hash)]).toEqual([true, false]);
    const rows = database((db) => db.prepare<[], { action: string; actor_name: string; via: string }>("SELECT action, actor_name, via FROM audit_log WHERE target_kind = 'user' ORDER BY id").all());
    const shell = `shell:${osUser()}`;
    expect(rows).toEqual(["user.create", "user.create", "user.set-role", "user.disable", "user.enable", "user.set-password"].map((action) => ({ action, actor_name: shell, via: "shell" })));
  });

  it.each([
    [["add", "cyd", "--password-stdin"], "a fine password", 2, /^loom: user add needs --role ROLE$/m],
    [["add", "cyd", "--role", "boss", "--password-stdin"], "a fine password", 2, /^loom: 'boss' is not a role: viewer, artist, wrangler, admin$/m],
    [["add", "cyd", "--role", "artist"], undefined, 2, /^loom: no terminal to ask for the password on: pipe it in with --password-stdin$/m],
    [["add", "cyd", "--role", "artist", "--password-stdin"], "", 2, /^loom: --password-stdin: standard input was empty$/m],
    [["add", "cyd", "--role", "artist", "--password-stdin"], "short", 1, /^loom user: a password needs at least 10 characters$/],
    [["add", "ada", "--role", "artist", "--password-stdin"], "a fine password", 1, /^loom user: a user named 'ada' already exists$/],
    [["set-role", "ada", "artist"], undefined, 1, /^loom user: making ada artist would leave the farm without an enabled admin; make someone else an admin first$/],
    [["disable", "ada"], undefined, 1, /^loom user: disabling ada would leave the farm without an enabled admin/],
    [["disable", "nobody"], undefined, 1, /^loom user: no user named 'nobody'$/],
    [["list", "--role", "admin"], undefined, 2, /^loom: user list does not take --role$/m],
    [["frobnicate"], undefined, 2, /^loom: unknown user command 'frobnicate'$/m],
  ])("loom user %j (stdin %j) → exit %d", async (args, stdin, code, message) => {
    const run = await user(args, stdin);
    expect({ code: run.code, err: run.err }).toEqual({ code, err: expect.stringMatching(message) });
  });

  it("changes nothing in a folder without a database (only add makes one)", async () => {
    const run = await runCli(["user", "list", "--data", "elsewhere"], tree.dir);
    expect(run).toMatchObject({ code: 1, err: `loom user: no Loom database in ${join(tree.dir, "elsewhere")} (give the server's data folder with --data)` });
  });
});

/** `script` (util-linux) runs a command on a pseudo-terminal: the prompts as a person sees them. */
const hasScript = spawnSync("script", ["--version"]).status === 0;

/** `loom ARGS…` on a terminal, typing each answer once its prompt has appeared; everything the terminal showed. */
async function onTerminal(args: string[], answers: Array<[prompt: string, typed: string]>): Promise<{ code: number | null; screen: string }> {
  const command = [process.execPath, LOOM_BIN, ...args].map((a) => `'${a}'`).join(" ");
  const child = spawn("script", ["-qfec", command, "/dev/null"], { cwd: tree.dir, env: loomEnv() as NodeJS.ProcessEnv, stdio: ["pipe", "pipe", "pipe"] });
  let screen = "";
  let next = 0;
  let from = 0;
  const type = () => {
    const answer = answers[next];
    const at = answer ? screen.indexOf(answer[0], from) : -1;
    if (!answer || at === -1) return;
    from = at + answer[0].length;
    next++;
    child.stdin.write(`${answer[1]}\r`);
  };
  for (const stream of [child.stdout, child.stderr]) stream.on("data", (chunk: Buffer) => ((screen += chunk.toString("utf8")), type()));
  const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
  return { code, screen: screen.replaceAll("\r\n", "\n") };
}

describe("loom user on a terminal", () => {
  it("asks for the password twice without echoing it", async (ctx) => {
    if (!hasScript) ctx.skip("skipped: util-linux `script` is not installed, so there is no terminal to test on");
    const run = await onTerminal(
      ["user", "add", "zed", "--role", "viewer", "--data", data],
      [
        ["Password for zed: ", "typed on a terminal"],
        ["Again: ", "typed on a terminal"],
      ],
    );
    expect(run).toEqual({ code: 0, screen: "Password for zed: \nAgain: \nCreated zed (viewer). They sign in on the portal, or with 'loom login'.\n" });
  }, 60_000);

  it("changes nothing when the two differ", async (ctx) => {
    if (!hasScript) ctx.skip("skipped: util-linux `script` is not installed, so there is no terminal to test on");
    const run = await onTerminal(
      ["user", "set-password", "zed", "--data", data],
      [
        ["Password for zed: ", "one new password"],
        ["Again: ", "another new password"],
      ],
    );
    expect(run).toEqual({ code: 1, screen: "Password for zed: \nAgain: \nloom: the two passwords differ; nothing was changed\n" });
    const hash = database((db) => db.prepare<[], { password_hash: string }>("SELECT password_hash FROM users WHERE name = 'zed'").get()!.password_hash);
    expect(await verifyPassword("typed on a terminal", hash)).toBe(true);
  }, 60_000);
});

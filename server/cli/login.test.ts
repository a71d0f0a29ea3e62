/**
 * `loom login`, `loom logout` and the token every other verb sends, end to end: real `loom`
 * processes against a real `loom serve --headless`, an account made with `loom user add` while
 * it runs, and each source of a token in its turn (LOOM_TOKEN, the stored login, LOOM_TOKEN_FILE,
 * ./data/local-admin.token, nothing).
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runLoom, startServe, tempTree, type ServingLoom } from "./cli-test-support";

const tree = tempTree();
const serverDir = join(tree.dir, "server");
const data = join(serverDir, "data");
const elsewhere = join(tree.dir, "elsewhere");
const home = join(tree.dir, "home");
const emptyHome = join(tree.dir, "empty-home");
const credentials = join(home, ".config", "loom", "credentials.json");
const PASSWORD = "correct horse battery staple";
let server: ServingLoom;
let url: string;

beforeAll(async () => {
  for (const dir of [serverDir, elsewhere, home, emptyHome]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(elsewhere, "job.yaml"), "specificationVersion: jobtemplate-2023-09\nname: Hello\nsteps:\n- name: S\n  script:\n    actions:\n      onRun:\n        command: echo\n");
  server = await startServe(data, { cwd: serverDir });
  url = server.url;
}, 120_000);
afterAll(async () => {
  await server?.stop();
  tree.remove();
});

/** `loom ARGS…` run from a folder without ./data, as a user whose config folder is `HOME`. */
const loom = (args: string[], env: Record<string, string> = {}, options: { stdin?: string; cwd?: string } = {}) =>
  runLoom(args, { cwd: options.cwd ?? elsewhere, env: { HOME: home, ...env }, ...(options.stdin === undefined ? {} : { stdin: options.stdin }) });

const stored = () => JSON.parse(readFileSync(credentials, "utf8")) as { servers: Record<string, { token: string; user: string; scope: string; tokenId: string }> };
const localAdminToken = () => readFileSync(join(data, "local-admin.token"), "utf8").trim();

/** Submits the small job with this environment and says whose it is (its submitter, from the database), or the refusal. */
async function submitAs(env: Record<string, string>, cwd?: string): Promise<string> {
  const submitted = await loom(["submit", join(elsewhere, "job.yaml"), "--server", url], env, cwd ? { cwd } : {});
  if (submitted.code !== 0) return `refused (${submitted.code}): ${submitted.stdout}${submitted.stderr}`;
  const db = new Database(join(data, "loom.db"), { readonly: true });
  try {
    return db.prepare<[string], { submitter: string }>("SELECT submitter FROM jobs WHERE id = ?").get(submitted.stdout.trim())?.submitter ?? "no such job";
  } finally {
    db.close();
  }
}

describe("loom login and the token loom sends", () => {
  it("an account made with `loom user add` while the server runs signs in; the token is kept 0600, never printed, and used", async () => {
    const added = await loom(["user", "add", "alice", "--role", "artist", "--password-stdin", "--data", data], {}, { stdin: `${PASSWORD}\n` });
    expect(added.code).toBe(0);

    const wrong = await loom(["login", "--server", url, "--user", "alice", "--password-stdin"], {}, { stdin: "not her password\n" });
    expect(wrong).toEqual({ code: 1, stdout: "", stderr: "loom login: wrong user name or password\n" });

    const login = await loom(["login", "--server", url, "--user", "alice", "--password-stdin"], {}, { stdin: `${PASSWORD}\n` });
    expect(login).toEqual({
      code: 0,
      stdout: expect.stringMatching(
        new RegExp(
          `^Signed in to ${url} as alice \\(artist\\)\\.\\nToken 'loom login \\([^)]+@[^)]+\\)': scope submit, expires \\d{4}-\\d{2}-\\d{2}; kept in ${credentials} \\(readable by you only\\)\\.\\n$`,
        ),
      ),
      stderr: "",
    });
    const saved = stored().servers[url]!;
    expect({ user: saved.user, scope: saved.scope, token: saved.token.slice(0, 9) }).toEqual({ user: "alice", scope: "submit", token: "loom_pat_" });
    expect(login.stdout).not.toContain(saved.token);
    expect({ file: (statSync(credentials).mode & 0o777).toString(8), folder: (statSync(join(home, ".config", "loom")).mode & 0o777).toString(8) }).toEqual({ file: "600", folder: "700" });

    const jobId = (await loom(["submit", "job.yaml", "--server", url])).stdout.trim();
    const job = await loom(["job", "get", jobId, "--server", url, "--json"]);
    expect({ code: job.code, submitter: (JSON.parse(job.stdout) as { submitter: string }).submitter }).toEqual({ code: 0, submitter: "alice" });
  }, 180_000);

  it("LOOM_TOKEN beats the login, the login beats LOOM_TOKEN_FILE, and a loopback server gets ./data/local-admin.token; with none, submit is refused with how to sign in", async () => {
    expect(await submitAs({ LOOM_TOKEN: localAdminToken() })).toBe("local-admin");
    expect(await submitAs({ LOOM_TOKEN_FILE: join(data, "local-admin.token") })).toBe("alice");
    expect(await submitAs({ HOME: emptyHome, LOOM_TOKEN_FILE: join(data, "local-admin.token") })).toBe("local-admin");
    expect(await submitAs({ HOME: emptyHome }, serverDir)).toBe("local-admin");

    expect(await submitAs({ HOME: emptyHome })).toBe(
      "refused (1): ERROR: sign in first (or send a token as 'Authorization: Bearer <token>'): no token was sent; sign in with " +
        `'loom login --server ${url}', set LOOM_TOKEN, or on the server's machine run 'loom' where ./data is its data folder (or set LOOM_TOKEN_FILE=<data folder>/local-admin.token)\n`,
    );
    expect(await submitAs({ LOOM_TOKEN: "loom_pat_not-a-real-one" })).toBe(
      `refused (1): ERROR: unknown token (it may have been deleted); create a new one, or run 'loom login': the token from LOOM_TOKEN was refused; sign in again with 'loom login --server ${url}', or set LOOM_TOKEN\n`,
    );
    const gone = await loom(["submit", "job.yaml", "--server", url, "--submitter", "someone"]);
    expect(gone).toMatchObject({ code: 2, stderr: expect.stringMatching(/^loom: --submitter is gone: a job's submitter is the account whose token submits it \(see 'loom login'\)\n/) });

    // A role changed on the server's shell counts from the next call.
    expect((await loom(["user", "set-role", "alice", "viewer", "--data", data])).code).toBe(0);
    expect(await submitAs({})).toBe("refused (1): ERROR: this needs the artist role or higher; you are a viewer\n");
    expect((await loom(["user", "set-role", "alice", "artist", "--data", data])).code).toBe(0);
    expect(await submitAs({})).toBe("alice");
  }, 240_000);

  it("logging in again revokes the replaced token; logout revokes the token and forgets it, and says so when the server cannot be reached", async () => {
    const login = (env: Record<string, string> = {}) => loom(["login", "--server", url, "--user", "alice", "--password-stdin"], env, { stdin: PASSWORD });
    const first = stored().servers[url]!.token;
    expect((await login()).code).toBe(0);
    const second = stored().servers[url]!;
    expect(second.token).not.toBe(first);
    expect(await submitAs({ LOOM_TOKEN: first })).toMatch(/^refused \(1\): ERROR: this token was revoked; /);

    const logout = await loom(["logout", "--server", url]);
    expect(logout).toEqual({ code: 0, stdout: `Signed out of ${url}: alice's token is revoked and removed from ${credentials}.\n`, stderr: "" });
    expect(stored().servers).toEqual({});
    expect(await submitAs({ LOOM_TOKEN: second.token })).toMatch(/^refused \(1\): ERROR: this token was revoked; create a new one, or run 'loom login': the token from LOOM_TOKEN was refused/);
    expect(await submitAs({})).toMatch(/^refused \(1\): ERROR: sign in first .*: no token was sent; /);
    expect(await loom(["logout", "--server", url])).toEqual({ code: 0, stdout: `Not signed in to ${url}: no token is stored for it.\n`, stderr: "" });

    expect((await login()).code).toBe(0);
    await server.stop();
    const offline = await loom(["logout", "--server", url]);
    expect(offline).toEqual({
      code: 1,
      stdout: expect.stringMatching(new RegExp(`^Removed alice's token for ${url} from ${credentials}, but it stays valid until \\d{4}-\\d{2}-\\d{2}: revoke it on the portal's Tokens page\\.\\n$`)),
      stderr: `loom logout: the token could not be revoked on the server: cannot reach the Loom server at ${url} (is it running? start it with 'npm start')\n`,
    });
    expect(stored().servers).toEqual({});
  }, 240_000);
});

/**
 * Which token a `loom` verb sends (credentials.ts), on real files: the order of the sources, and
 * that ./data/local-admin.token never goes to a server on another machine.
 */
import { chmodSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { tempTree } from "./cli-test-support";
import { readLogins, resolveToken, writeLogin, type CredentialSources } from "./credentials";

const tree = tempTree({ "project/data/local-admin.token": "loom_pat_local\n", "other/local-admin.token": "loom_pat_other\n", "empty.token": "\n" });
afterAll(tree.remove);
const config = join(tree.dir, "config", "loom");
writeLogin(config, "http://farm.example:3000/some/page", { token: "loom_pat_login", user: "ada", tokenId: "tok_1", scope: "submit", expiresAt: null });

const project = join(tree.dir, "project");
const sent = (server: string, sources: Partial<CredentialSources>) => resolveToken(server, { configDir: null, cwd: project, ...sources })?.token ?? null;

describe("resolveToken", () => {
  it.each<[string, string, Partial<CredentialSources>, string | null]>([
    ["LOOM_TOKEN first", "http://farm.example:3000", { token: "loom_pat_env", configDir: config, tokenFile: "../other/local-admin.token" }, "loom_pat_env"],
    ["then the login for that server's origin", "http://farm.example:3000/", { configDir: config, tokenFile: "../other/local-admin.token" }, "loom_pat_login"],
    ["a login is per server", "http://farm.example:3001", { configDir: config }, null],
    ["then LOOM_TOKEN_FILE (relative to the working folder)", "http://farm.example:3001", { configDir: config, tokenFile: "../other/local-admin.token" }, "loom_pat_other"],
    ["then ./data/local-admin.token for 127.0.0.1", "http://127.0.0.1:3000", {}, "loom_pat_local"],
    ["… for localhost", "http://localhost:3900", {}, "loom_pat_local"],
    ["… for [::1]", "http://[::1]:3000", {}, "loom_pat_local"],
    ["never for a server on another machine", "http://farm.example:3000", {}, null],
    ["nor for a name that only starts like localhost", "http://localhost.evil.example:3000", {}, null],
    ["nothing in a folder without ./data", "http://127.0.0.1:3000", { cwd: tree.dir }, null],
  ])("%s", (_name, server, sources, expected) => {
    expect(sent(server, sources)).toBe(expected);
  });

  it.each([
    ["../empty.token", `LOOM_TOKEN_FILE names ${join(tree.dir, "empty.token")}, which is empty or cannot be read`],
    ["../missing.token", `LOOM_TOKEN_FILE names ${join(tree.dir, "missing.token")}, which does not exist`],
  ])("LOOM_TOKEN_FILE=%s is an error, not a fall-through to ./data", (tokenFile, message) => {
    expect(() => sent("http://127.0.0.1:3000", { tokenFile })).toThrow(message);
  });

  it("writeLogin keeps the file 0600 in a 0700 folder, and removes one server's login alone", () => {
    writeLogin(config, "http://other.example", { token: "loom_pat_2", user: "bo", tokenId: "tok_2", scope: "read", expiresAt: 1 });
    expect({ file: (statSync(join(config, "credentials.json")).mode & 0o777).toString(8), folder: (statSync(config).mode & 0o777).toString(8) }).toEqual({ file: "600", folder: "700" });
    writeLogin(config, "http://other.example/", null);
    expect(Object.keys(readLogins(config).servers)).toEqual(["http://farm.example:3000"]);
  });

  it("writeLogin narrows a config folder that already existed wider to 0700, and a credentials file to 0600", () => {
    const wide = join(tree.dir, "wide-config", "loom");
    mkdirSync(wide, { recursive: true, mode: 0o755 });
    chmodSync(wide, 0o755);
    writeFileSync(join(wide, "credentials.json"), '{"servers": {}}\n', { mode: 0o644 });
    writeLogin(wide, "http://farm.example:3000", { token: "loom_pat_wide", user: "ada", tokenId: "tok_3", scope: "submit", expiresAt: null });
    expect({ file: (statSync(join(wide, "credentials.json")).mode & 0o777).toString(8), folder: (statSync(wide).mode & 0o777).toString(8) }).toEqual({ file: "600", folder: "700" });
  });
});

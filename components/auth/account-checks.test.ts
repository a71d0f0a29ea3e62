import { describe, expect, it } from "vitest";
import { accountProblems, accountReady, type AccountFields } from "./account-checks";

const fields = (patch: Partial<AccountFields>): AccountFields => ({ name: "ada", password: "correct horse battery", confirm: "correct horse battery", ...patch });

describe("accountProblems", () => {
  it.each<[string, Partial<AccountFields>, object]>([
    ["a good account", {}, {}],
    ["nothing typed yet", { name: "", password: "", confirm: "" }, {}],
    ["a name too short", { name: "al" }, { name: expect.stringMatching(/^A user name is 3 to 64/) }],
    ["a name with a space", { name: "ada l" }, { name: expect.stringMatching(/letters, digits/) }],
    ["a name starting with a dot", { name: ".ada" }, { name: expect.stringMatching(/starting with a letter or digit/) }],
    ["a password too short", { password: "short", confirm: "short" }, { password: "A password needs at least 10 characters." }],
    ["a password holding the name", { password: "xxADAxxxxxxx", confirm: "xxADAxxxxxxx" }, { password: "A password must not contain the user name." }],
    ["passwords that differ", { confirm: "correct horse battery!" }, { confirm: "The two passwords differ." }],
    ["no confirmation asked", { confirm: null }, {}],
  ])("%s", (_case, patch, expected) => {
    expect(accountProblems(fields(patch))).toEqual(expected);
  });

  it("checks a password before any name is typed without calling every password bad", () => {
    expect(accountProblems(fields({ name: "" }))).toEqual({});
  });
});

describe("accountReady", () => {
  it.each<[string, Partial<AccountFields>, boolean]>([
    ["all good", {}, true],
    ["no confirmation asked", { confirm: null }, true],
    ["name missing", { name: "" }, false],
    ["confirmation missing", { confirm: "" }, false],
    ["a problem", { password: "short", confirm: "short" }, false],
  ])("%s", (_case, patch, expected) => {
    expect(accountReady(fields(patch))).toBe(expected);
  });
});

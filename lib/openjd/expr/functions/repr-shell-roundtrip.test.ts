/**
 * The POSIX quoting function is `repr_sh` (Expression Language §2.2.6: "follows the behavior of
 * Python's shlex.quote and shlex.join"); a line break inside single quotes is valid POSIX, so a
 * value holding one comes back intact from a real /bin/sh. `repr_cmd` is the cmd.exe quoter
 * (§2.2.6: "Windows CMD-safe strings suitable for use in .bat files"), where no quoting carries a
 * line break; it keeps refusing one (see repr.test.ts).
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { run, text } from "../expr-test-support";
import { stringValue, makeList } from "../values";

const SH = "/bin/sh";

/** The words /bin/sh reads from `quoted`: each printed with `printf '%s\0'`, so line breaks inside a word survive. */
function shellWords(quoted: string): string[] {
  const out = execFileSync(SH, ["-c", `for a in ${quoted}; do printf '%s\\0' "$a"; done`], { encoding: "utf8" });
  return out.split("\0").slice(0, -1);
}

const values = ["a\nb", "line one\nline two\n", "\n", "it's\na 'test'", "tab\tand\r\nCRLF", "$HOME `x` \\n", ""];

describe.skipIf(!existsSync(SH))("repr_sh round-trips through /bin/sh", () => {
  it.each(values.map((v) => [JSON.stringify(v), v]))("repr_sh(%s)", (_label, value) => {
    const quoted = text("repr_sh(Param.S)", { symbols: { "Param.S": stringValue(value) } });
    expect(shellWords(quoted)).toEqual([value]);
  });

  it("repr_sh of a list keeps each word, line breaks included", () => {
    const quoted = text("repr_sh(Param.L)", { symbols: { "Param.L": makeList(values.map(stringValue)) } });
    expect(shellWords(quoted)).toEqual(values);
  });

  it("repr_cmd still refuses a line break: cmd.exe cannot carry one", () => {
    expect(() => run("repr_cmd('a\\nb')")).toThrow(/repr_cmd\(\): a cmd\.exe argument cannot contain a line break/);
  });
});

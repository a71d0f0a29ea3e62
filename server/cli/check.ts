/** `loom check FILE [--json]`: validate a job or environment template. Exit 0 valid, 1 invalid. */
import { describeError } from "../../lib/openjd";
import { parseArgs, UsageError } from "./args";
import { json, type CliIo } from "./io";
import { FileProblem, readTemplateFile } from "./read-template";

export const CHECK_USAGE = "usage: loom check FILE [--json]";

export function runCheck(argv: readonly string[], io: CliIo): number {
  const args = parseArgs(argv, { booleans: ["--json"] });
  if (args.positionals.length !== 1) throw new UsageError("check takes exactly one FILE");
  const file = args.positionals[0] as string;
  const asJson = args.booleans.has("--json");
  try {
    const loaded = readTemplateFile(file, { cwd: io.cwd });
    const ok = loaded.errors.length === 0;
    if (asJson) {
      io.out(json({ status: ok ? "success" : "error", file, kind: loaded.template?.kind ?? null, errors: loaded.errors }));
    } else if (ok) {
      io.out(`Template at '${file}' passes validation checks.`);
    } else {
      io.out(`ERROR: '${file}' failed checks: ${loaded.errors.length} error${loaded.errors.length === 1 ? "" : "s"}`);
      for (const error of loaded.errors) io.out(`  ${describeError(error)}`);
    }
    return ok ? 0 : 1;
  } catch (error) {
    if (!(error instanceof FileProblem)) throw error;
    if (asJson) io.out(json({ status: "error", file, errors: [{ path: "", line: null, column: null, message: error.message }] }));
    else io.out(`ERROR: ${error.message}`);
    return 1;
  }
}

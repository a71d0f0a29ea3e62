/**
 * Reading a name or a password for `loom login` and `loom user`: on a terminal, asked on stderr
 * (a password without echo, the terminal in raw mode for the one line); for scripts, the
 * password is the whole of stdin (`--password-stdin`, as `docker login` takes it), so it never
 * appears on a command line or in `ps`.
 */
import { UsageError } from "./args";
import type { CliInput, CliIo } from "./io";

/** Ctrl-C or Ctrl-D at a prompt: the command stops (exit 130), nothing changed. */
export class PromptCanceled extends Error {}

/** What was typed cannot be used (nothing, or two passwords that differ): exit 1, nothing changed. */
export class PromptRefused extends Error {}

/** A password on stdin is one line; anything longer than this is not a password. */
const STDIN_LIMIT = 64 * 1024;

export function hasTerminal(io: CliIo): boolean {
  return io.stdin?.isTTY === true && typeof io.stdin.setRawMode === "function";
}

/** All of stdin, less one trailing line break. */
export async function readPasswordFromStdin(io: CliIo): Promise<string> {
  const input = io.stdin;
  if (!input) throw new UsageError("--password-stdin: there is no standard input to read");
  if (input.isTTY) throw new UsageError("--password-stdin reads a pipe or a file, not the terminal: leave it out to be asked");
  let text = "";
  for await (const chunk of input as AsyncIterable<Buffer | string>) {
    text += typeof chunk === "string" ? chunk : chunk.toString("utf8");
    if (text.length > STDIN_LIMIT) throw new UsageError("--password-stdin: standard input is far too long for a password");
  }
  const password = text.replace(/\r?\n$/, "");
  if (password === "") throw new UsageError("--password-stdin: standard input was empty");
  if (/[\r\n]/.test(password)) throw new UsageError("--password-stdin: a password is one line");
  return password;
}

/** One line typed on the terminal; `hidden` echoes nothing. */
export function askTerminal(io: CliIo, question: string, hidden: boolean): Promise<string> {
  const input = io.stdin as CliInput & { setRawMode(mode: boolean): unknown };
  const write = io.prompt ?? ((text: string) => io.err(text));
  // Echo off before the question shows: whatever is typed once it is visible must not be echoed.
  input.setRawMode(true);
  write(question);
  return new Promise((resolve, reject) => {
    let value = "";
    const finish = (error: Error | null) => {
      input.removeListener("data", onData);
      input.setRawMode(false);
      input.pause();
      write("\n");
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: Buffer | string) => {
      for (const ch of typeof chunk === "string" ? chunk : chunk.toString("utf8")) {
        if (ch === "\r" || ch === "\n") return finish(null);
        if (ch === "\u0003" || (ch === "\u0004" && value === "")) return finish(new PromptCanceled());
        if (ch === "\u007f" || ch === "\b") {
          if (value !== "" && !hidden) write("\b \b");
          value = Array.from(value).slice(0, -1).join("");
        } else if (ch === "\u0015") {
          if (!hidden) write("\b \b".repeat(Array.from(value).length));
          value = "";
        } else if (ch >= " ") {
          value += ch;
          if (!hidden) write(ch);
        }
      }
    };
    input.on("data", onData);
    input.resume();
  });
}

/** The user name: given, or asked on the terminal. */
export async function userName(io: CliIo, given: string | undefined, flag: string): Promise<string> {
  if (given !== undefined) return given;
  if (!hasTerminal(io)) throw new UsageError(`${flag} NAME is needed when there is no terminal to ask on`);
  const name = (await askTerminal(io, "User name: ", false)).trim();
  if (name === "") throw new PromptRefused("no user name given; nothing was changed");
  return name;
}

/**
 * A password: from stdin with `--password-stdin`, else asked on the terminal (twice when it is
 * a new one, so a typo does not lock anyone out).
 */
export async function password(io: CliIo, options: { fromStdin: boolean; confirm: boolean; question?: string }): Promise<string> {
  if (options.fromStdin) return readPasswordFromStdin(io);
  if (!hasTerminal(io)) throw new UsageError("no terminal to ask for the password on: pipe it in with --password-stdin");
  const first = await askTerminal(io, options.question ?? "Password: ", true);
  if (first === "") throw new PromptRefused("no password given; nothing was changed");
  if (options.confirm && (await askTerminal(io, "Again: ", true)) !== first) throw new PromptRefused("the two passwords differ; nothing was changed");
  return first;
}

/** Where CLI verbs write (and read passwords from); tests pass a collector instead of the process streams. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  cwd: string;
  /** Where `--password-stdin` and the prompts read; absent means there is nothing to read. */
  stdin?: CliInput;
  /** Writes a prompt without a line break (on the terminal's stderr). */
  prompt?(text: string): void;
}

/** The part of process.stdin the prompts use (a terminal can switch off its echo). */
export type CliInput = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?(mode: boolean): unknown };

export const processIo: CliIo = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  cwd: process.cwd(),
  // A getter: process.stdin is only opened by the verbs that read it.
  get stdin() {
    return process.stdin;
  },
  prompt: (text) => process.stderr.write(text),
};

export function json(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === "bigint" ? v.toString() : v), 2);
}

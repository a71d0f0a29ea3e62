/** Where CLI verbs write; tests pass a collector instead of the process streams. */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
  cwd: string;
}

export const processIo: CliIo = {
  out: (text) => process.stdout.write(`${text}\n`),
  err: (text) => process.stderr.write(`${text}\n`),
  cwd: process.cwd(),
};

export function json(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (typeof v === "bigint" ? v.toString() : v), 2);
}

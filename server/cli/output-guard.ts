/**
 * The command's own output on a full disk (issue 11: `loom serve > log` with the log on a full
 * disk died without a word on its first line). A write that fails for lack of space loses that
 * line, not the process: the command goes on, says so once on its other stream, and as soon as
 * the stream takes writes again it writes how many were lost and when.
 *
 * EPIPE (`loom … | head` closed the pipe) keeps its meaning: later output is dropped silently.
 * Any other write error still ends the command, as before.
 */
import { writeSync } from "node:fs";

const NO_SPACE: ReadonlySet<string> = new Set(["ENOSPC", "EDQUOT", "EFBIG"]);
const PROBE_MS = 2_000;

interface Guarded {
  stream: NodeJS.WriteStream;
  fd: number;
  name: string;
}

export function guardOutput(
  streams: readonly Guarded[] = [
    { stream: process.stdout, fd: 1, name: "stdout" },
    { stream: process.stderr, fd: 2, name: "stderr" },
  ],
): void {
  for (const guarded of streams) {
    const other = streams.find((s) => s !== guarded);
    let lost = 0;
    let since: number | null = null;
    let code = "";
    const probe = setInterval(() => {
      if (since === null) return;
      const line = `loom: ${lost} write${lost === 1 ? "" : "s"} to ${guarded.name} ${lost === 1 ? "was" : "were"} lost from ${new Date(since).toISOString()} to ${new Date().toISOString()} (${code}: no space left)\n`;
      try {
        writeSync(guarded.fd, line);
      } catch {
        return; // still full (or busy): try again later
      }
      since = null;
      lost = 0;
    }, PROBE_MS);
    probe.unref();
    guarded.stream.on("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EPIPE") return;
      if (!error.code || !NO_SPACE.has(error.code)) throw error;
      lost++;
      if (since !== null) return;
      since = Date.now();
      code = error.code;
      try {
        other?.stream.write(`loom: cannot write its ${guarded.name} (${error.message}); it keeps running and, once it can write again, writes there how much was lost\n`);
      } catch {
        // nowhere left to say it
      }
    });
  }
}

/**
 * Turns an action's output bytes into lines the way the OpenJD runtimes log them (reference
 * behaviour §3.3): UTF-8 with invalid bytes replaced by U+FFFD, the trailing `\n` / `\r\n`
 * removed, and lines longer than 64,000 characters cut into several lines so that a program
 * printing megabytes without a newline never makes us hold the whole line in memory.
 */
import { StringDecoder } from "node:string_decoder";

export const MAX_LINE_CHARS = 64_000;

export class LineSplitter {
  // StringDecoder keeps a multi-byte character that straddles two chunks for the next write.
  private readonly decoder = new StringDecoder("utf8");
  private pending = "";
  private ended = false;

  constructor(
    private readonly emit: (line: string) => void,
    private readonly maxChars = MAX_LINE_CHARS,
  ) {}

  push(chunk: Buffer): void {
    if (!this.ended) this.take(this.decoder.write(chunk));
  }

  /** Flushes a last line that had no newline. Idempotent. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.take(this.decoder.end());
    if (this.pending !== "") this.emit(withoutCarriageReturn(this.pending));
    this.pending = "";
  }

  private take(text: string): void {
    let start = 0;
    // A `\n` byte never occurs inside a multi-byte UTF-8 sequence, so splitting decoded text is safe.
    for (let newline = text.indexOf("\n"); newline !== -1; newline = text.indexOf("\n", start)) {
      this.pending += text.slice(start, newline);
      this.emitOverlong();
      this.emit(withoutCarriageReturn(this.pending));
      this.pending = "";
      start = newline + 1;
    }
    if (start < text.length) {
      this.pending += text.slice(start);
      this.emitOverlong();
    }
  }

  private emitOverlong(): void {
    // A trailing `\r` may be the first half of `\r\n`; it does not count towards the limit.
    while (this.pending.length > this.maxChars + (this.pending.endsWith("\r") ? 1 : 0)) {
      let cut = this.maxChars;
      if (isHighSurrogate(this.pending.charCodeAt(cut - 1))) cut -= 1; // keep astral characters whole
      this.emit(this.pending.slice(0, cut));
      this.pending = this.pending.slice(cut);
    }
  }
}

function withoutCarriageReturn(line: string): string {
  return line.endsWith("\r") ? line.slice(0, -1) : line;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

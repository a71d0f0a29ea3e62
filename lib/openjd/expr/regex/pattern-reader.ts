/** A cursor over the pattern text that reads whole code points and raises located errors. */
import { RegexError } from "./regex-error";

export class PatternReader {
  pos = 0;

  constructor(readonly source: string) {}

  get atEnd(): boolean {
    return this.pos >= this.source.length;
  }

  /** The code point `ahead` code points after the cursor, or -1 past the end. */
  peek(ahead = 0): number {
    let at = this.pos;
    for (let k = 0; k < ahead && at < this.source.length; k++) at += width(this.source.codePointAt(at) ?? 0);
    return at < this.source.length ? (this.source.codePointAt(at) ?? -1) : -1;
  }

  /** True when the next code point is the given ASCII character. */
  is(ch: string, ahead = 0): boolean {
    return this.peek(ahead) === ch.charCodeAt(0);
  }

  next(): number {
    const cp = this.peek();
    if (cp >= 0) this.pos += width(cp);
    return cp;
  }

  /** Consumes `text` if the source continues with it. */
  eat(text: string): boolean {
    if (!this.source.startsWith(text, this.pos)) return false;
    this.pos += text.length;
    return true;
  }

  fail(message: string, offset: number = this.pos): never {
    throw new RegexError(message, offset);
  }
}

function width(cp: number): number {
  return cp > 0xffff ? 2 : 1;
}

export function isAsciiDigit(cp: number): boolean {
  return cp >= 0x30 && cp <= 0x39;
}

export function isAsciiAlnum(cp: number): boolean {
  return isAsciiDigit(cp) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);
}

export function hexValue(cp: number): number {
  if (isAsciiDigit(cp)) return cp - 0x30;
  if (cp >= 0x41 && cp <= 0x46) return cp - 0x37;
  if (cp >= 0x61 && cp <= 0x66) return cp - 0x57;
  return -1;
}

export function show(cp: number): string {
  return cp < 0 ? "end of pattern" : `'${String.fromCodePoint(cp)}'`;
}

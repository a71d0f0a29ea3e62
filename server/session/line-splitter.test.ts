import { describe, expect, it } from "vitest";
import { LineSplitter, MAX_LINE_CHARS } from "./line-splitter";

function split(chunks: (string | number[])[], maxChars = MAX_LINE_CHARS): string[] {
  const lines: string[] = [];
  const splitter = new LineSplitter((line) => lines.push(line), maxChars);
  for (const chunk of chunks) splitter.push(typeof chunk === "string" ? Buffer.from(chunk, "utf8") : Buffer.from(chunk));
  splitter.end();
  splitter.end(); // idempotent
  return lines;
}

describe("LineSplitter", () => {
  it.each<[string, (string | number[])[], string[]]>([
    ["one chunk, several lines", ["a\nb\n"], ["a", "b"]],
    ["a line across chunks", ["a", "b", "c\n"], ["abc"]],
    ["CRLF", ["a\r\nb\r\n"], ["a", "b"]],
    ["CRLF split between chunks", ["a\r", "\nb"], ["a", "b"]],
    ["a lone CR inside a line stays", ["a\rb\n"], ["a\rb"]],
    ["empty lines", ["\n\n"], ["", ""]],
    ["last line without newline", ["x\nlast"], ["x", "last"]],
    ["nothing", [], []],
    [
      "multi-byte character split across chunks",
      [
        [0x61, 0xc3],
        [0xa9, 0x0a],
      ],
      ["aé"],
    ],
    [
      "4-byte character split across chunks",
      [
        [0xf0, 0x9f],
        [0x98, 0x80, 0x0a],
      ],
      ["😀"],
    ],
    ["invalid bytes become U+FFFD", [[0x6f, 0x6b, 0xff, 0xfe, 0x21, 0x0a]], ["ok\uFFFD\uFFFD!"]],
    ["truncated sequence at the end", [[0x61, 0xe2, 0x82]], ["a\uFFFD"]],
  ])("%s", (_name, chunks, expected) => {
    expect(split(chunks)).toEqual(expected);
  });

  it.each<[string, string[], string[]]>([
    ["a long line is cut into pieces of the limit", ["abcdefghij\n"], ["abcd", "efgh", "ij"]],
    ["exactly the limit is one line", ["abcd\n"], ["abcd"]],
    ["exactly the limit with CRLF is one line", ["abcd\r", "\n"], ["abcd"]],
    ["twice the limit has no empty tail", ["abcdefgh\n"], ["abcd", "efgh"]],
    ["pieces across chunks", ["ab", "cdef", "gh", "ij"], ["abcd", "efgh", "ij"]],
  ])("limit 4: %s", (_name, chunks, expected) => {
    expect(split(chunks, 4)).toEqual(expected);
  });

  it("does not cut an astral character in half", () => {
    expect(split(["ab😀c\n"], 3)).toEqual(["ab", "😀c"]);
  });

  it("cuts a 200,000-character line at 64,000", () => {
    expect(split(["x".repeat(200_000) + "\n"]).map((line) => line.length)).toEqual([64_000, 64_000, 64_000, 8_000]);
  });
});

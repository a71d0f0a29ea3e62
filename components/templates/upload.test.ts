import { describe, expect, it } from "vitest";
import { bytesToBase64, libraryName, uploadKind } from "./upload";

describe("uploadKind", () => {
  it.each([
    ["shot.yaml", "yaml"],
    ["SHOT.YML", "yaml"],
    ["ffmpeg.json", "json"],
    ["bundle.ZIP", "zip"],
    ["notes.txt", null],
    ["yaml", null],
  ])("%s → %s", (name, kind) => {
    expect(uploadKind(name)).toBe(kind);
  });
});

describe("libraryName", () => {
  it.each([
    ["blender-ffmpeg.yaml", "", "blender-ffmpeg"],
    ["C:\\jobs\\comp.json", "", "comp"],
    ["template.yaml", "specificationVersion: jobtemplate-2023-09\nname: Shot 010\n", "Shot 010"],
    ["template.json", "{}", "Untitled template"],
  ])("%s → %s", (file, text, expected) => {
    expect(libraryName(file, text)).toBe(expected);
  });
});

describe("bytesToBase64", () => {
  it("matches Node's encoder, across chunk boundaries", () => {
    const bytes = new Uint8Array(100_003).map((_, i) => (i * 7919) % 256);
    expect(bytesToBase64(bytes)).toBe(Buffer.from(bytes).toString("base64"));
    expect(bytesToBase64(new Uint8Array())).toBe("");
  });
});

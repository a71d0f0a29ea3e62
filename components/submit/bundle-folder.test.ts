import { describe, expect, it } from "vitest";
import { bundleFolderFiles, isZipName } from "./bundle-folder";

const chosen = (...paths: string[]) => paths.map((webkitRelativePath) => ({ webkitRelativePath }));

describe("bundleFolderFiles", () => {
  it("takes the folder's own bundle files, and nothing under it or beside them", () => {
    const pick = bundleFolderFiles(chosen("shot/template.yaml", "shot/parameter_values.json", "shot/assets/template.json", "shot/notes.txt", "shot/asset_references.yaml"));
    expect(pick?.folderName).toBe("shot");
    expect(pick?.files.map((f) => [f.name, f.file.webkitRelativePath])).toEqual([
      ["template.yaml", "shot/template.yaml"],
      ["parameter_values.json", "shot/parameter_values.json"],
    ]);
  });
  it("is an empty bundle for a folder without those files (the server says what is missing)", () => {
    expect(bundleFolderFiles(chosen("renders/a.exr"))).toEqual({ folderName: "renders", files: [] });
  });
  it("is null when nothing was chosen", () => {
    expect(bundleFolderFiles([])).toBeNull();
  });
});

describe("isZipName", () => {
  it.each([
    ["shot.zip", true],
    ["SHOT.ZIP", true],
    ["shot.zip.yaml", false],
    ["template.yaml", false],
  ])("%s → %s", (name, zip) => {
    expect(isZipName(name)).toBe(zip);
  });
});

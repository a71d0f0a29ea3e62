/**
 * A job bundle folder chosen with `<input webkitdirectory>`: the browser lists every file under
 * it with its path from the chosen folder ("shot/template.yaml"). The bundle is the folder's own
 * template.yaml|json and parameter_values.yaml|json (job-bundle.ts): files in sub-folders are
 * not read, nor sent.
 */
export const BUNDLE_FILE_NAMES = ["template.yaml", "template.json", "parameter_values.yaml", "parameter_values.json"] as const;
export type BundleFileName = (typeof BUNDLE_FILE_NAMES)[number];

export interface FolderPick<F> {
  folderName: string;
  files: Array<{ name: BundleFileName; file: F }>;
}

/** Which of the chosen files make the bundle; null when nothing was chosen. */
export function bundleFolderFiles<F extends { webkitRelativePath: string }>(chosen: readonly F[]): FolderPick<F> | null {
  if (chosen.length === 0) return null;
  const folderName = chosen[0]!.webkitRelativePath.split("/")[0] ?? "";
  const files: FolderPick<F>["files"] = [];
  for (const file of chosen) {
    const parts = file.webkitRelativePath.split("/");
    const name = parts[1] as BundleFileName;
    if (parts.length === 2 && parts[0] === folderName && BUNDLE_FILE_NAMES.includes(name)) files.push({ name, file });
  }
  return { folderName, files };
}

/** A chosen file is a bundle .zip by its name: it is read as a zip on the server, never as YAML. */
export function isZipName(fileName: string): boolean {
  return fileName.toLowerCase().endsWith(".zip");
}

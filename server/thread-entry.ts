/**
 * Where a worker thread's entry file is: beside the module that starts the thread when the
 * server runs from the sources, or under the working directory (the repository) when it runs
 * inside the Next.js bundle, where `import.meta.url` points into .next/.
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** `moduleUrl` is the starting module's import.meta.url; `sourceFolder` the entry's folder in the repository. */
export function threadEntryFile(moduleUrl: string, name: string, sourceFolder: string): string {
  const candidates: string[] = [];
  try {
    candidates.push(join(dirname(fileURLToPath(moduleUrl)), name));
  } catch {
    // not a file URL inside a bundle
  }
  candidates.push(resolve(sourceFolder, name));
  const found = candidates.find((file) => existsSync(file));
  if (!found) throw new Error(`the thread entry ${name} was not found (looked in ${candidates.join(", ")})`);
  return found;
}

/**
 * A Session's working directory (spec digest §12.3): private to the Session (0700), the cwd of
 * every action, holding the path-mapping rules file and the embedded files (0600, 0700 when
 * runnable). Removed when the Session ends unless it is preserved for debugging.
 */
import { randomBytes } from "node:crypto";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { type PathMappingRule, sortPathMappingRules } from "../../lib/openjd";

export interface WorkingDirectory {
  path: string;
  filesDirectory: string;
  pathMappingRulesFile: string;
  hasPathMappingRules: boolean;
}

/** Where Session directories are made when no root is given. */
export function defaultSessionRoot(): string {
  return join(tmpdir(), "loom-sessions");
}

export async function createWorkingDirectory(sessionId: string, rules: readonly PathMappingRule[], root = defaultSessionRoot()): Promise<WorkingDirectory> {
  await mkdir(root, { recursive: true, mode: 0o755 });
  const path = await mkdtemp(join(root, `${sessionId.replace(/[^A-Za-z0-9_-]/g, "_")}-`));
  await chmod(path, 0o700);
  const filesDirectory = join(path, "embedded_files");
  await mkdir(filesDirectory, { mode: 0o700 });
  const pathMappingRulesFile = join(path, "path_mapping_rules.json");
  await writeFile(pathMappingRulesFile, pathMappingDocument(rules), { mode: 0o600 });
  return { path, filesDirectory, pathMappingRulesFile, hasPathMappingRules: rules.length > 0 };
}

/** The `pathmapping-1.0` document, rules in the order they apply; `{}` when there are none (as the reference). */
function pathMappingDocument(rules: readonly PathMappingRule[]): string {
  if (rules.length === 0) return "{}";
  return JSON.stringify({ version: "pathmapping-1.0", path_mapping_rules: sortPathMappingRules(rules) });
}

export async function removeWorkingDirectory(directory: WorkingDirectory): Promise<void> {
  await rm(directory.path, { recursive: true, force: true, maxRetries: 3 });
}

/** A path for an embedded file: its `filename` (a validated base name) or a fresh random name. */
export function embeddedFilePath(directory: WorkingDirectory, filename: string | undefined): string {
  const name = filename ?? `tmp${randomBytes(6).toString("hex")}`;
  // Validation already refuses separators, "." and ".."; this keeps the guarantee local too.
  if (basename(name) !== name || name === "." || name === "..") throw new Error(`unsafe embedded file name '${name}'`);
  return join(directory.filesDirectory, name);
}

export async function writeEmbeddedFile(path: string, data: string, runnable: boolean): Promise<void> {
  await writeFile(path, data, { encoding: "utf8", mode: runnable ? 0o700 : 0o600 });
  // writeFile keeps an existing file's mode: set it explicitly for rewrites.
  await chmod(path, runnable ? 0o700 : 0o600);
}

/**
 * Resolution of PATH values at job creation (spec §2.2, digest §4.2), for PATH parameters and
 * each item of a LIST[PATH]: relative submitted values join the submitter's working directory,
 * relative defaults join the job template's directory and may neither be absolute nor escape
 * it. With EXPR, URIs (`s3://bucket/key`) are not paths and pass through unchanged.
 */
import { clip, type Parsed } from "../numbers";
import { isUri, joinPath, looksAbsoluteOnAnyPlatform, normalizePath, type PathFlavor } from "../paths";

export interface PathContext {
  /** Directory of the job template: relative PATH defaults are joined with it. */
  templateDir?: string;
  /** Directory the submitter works in: relative submitted PATH values are joined with it. */
  workingDir?: string;
  flavor: PathFlavor;
  /**
   * EXPR: `scheme://` values are URIs and are neither joined nor checked as paths. Without EXPR a
   * URI-looking PATH value is just a relative path (conformance 2.2--path-uri-without-expr).
   * LIST[PATH] only exists with EXPR, so its items always treat URIs this way.
   */
  uris?: boolean;
}

export function resolveSubmittedPath(value: string, paths: PathContext, uris = paths.uris ?? false): string {
  if (value === "" || paths.workingDir === undefined || (uris && isUri(value))) return value;
  return joinPath(paths.workingDir, value, paths.flavor);
}

export function resolveDefaultPath(raw: string, paths: PathContext, uris = paths.uris ?? false): Parsed<string> {
  if (raw === "" || (uris && isUri(raw))) return { ok: true, value: raw };
  if (looksAbsoluteOnAnyPlatform(raw)) {
    return { ok: false, message: `the default '${clip(raw)}' is an absolute path; PATH defaults must be relative to the job template's directory` };
  }
  const normalized = normalizePath(raw, paths.flavor);
  if (normalized.escapes) return { ok: false, message: `the default '${clip(raw)}' leads outside the job template's directory` };
  return { ok: true, value: paths.templateDir === undefined ? normalized.path : joinPath(paths.templateDir, raw, paths.flavor) };
}

/** The `extensions` vocabulary: which OpenJD extensions exist and which this build supports. */

export const KNOWN_EXTENSIONS = ["TASK_CHUNKING", "REDACTED_ENV_VARS", "FEATURE_BUNDLE_1", "EXPR", "WRAP_ACTIONS", "TASK_DEPENDENCIES"] as const;
export type ExtensionName = (typeof KNOWN_EXTENSIONS)[number];

/**
 * Extensions Loom implements. A known extension left out of this set is refused with a clear
 * "not supported yet" error wherever a template declares it or uses its fields.
 */
export const SUPPORTED_EXTENSIONS: ReadonlySet<ExtensionName> = new Set<ExtensionName>(["TASK_CHUNKING", "REDACTED_ENV_VARS", "FEATURE_BUNDLE_1", "EXPR", "WRAP_ACTIONS", "TASK_DEPENDENCIES"]);

/** Extensions that only make sense together with another one (RFC 0008: WRAP_ACTIONS needs EXPR). */
export const EXTENSION_PREREQUISITES: Readonly<Partial<Record<ExtensionName, ExtensionName>>> = {
  WRAP_ACTIONS: "EXPR",
};

export function isKnownExtension(name: string): name is ExtensionName {
  return (KNOWN_EXTENSIONS as readonly string[]).includes(name);
}

/** Message for a field that needs an extension the document did not declare (or Loom lacks). */
export function requiresExtension(what: string, extension: ExtensionName): string {
  return SUPPORTED_EXTENSIONS.has(extension) ? `${what} requires extension ${extension} (add it to 'extensions')` : `${what} requires extension ${extension} (not supported yet)`;
}

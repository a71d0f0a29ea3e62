/** What lib/openjd makes of a text: its kind and errors, or why it is not a template at all (pure; run in a check thread). */
import { checkTemplateText, type DocumentFormat, getEntry, type TemplateError } from "../../lib/openjd";

export type TemplateKind = "job" | "environment";

const VERSIONS: Record<string, TemplateKind> = { "jobtemplate-2023-09": "job", "environment-2023-09": "environment" };

export type InspectedTemplate = { readable: true; kind: TemplateKind; errors: TemplateError[]; jobName: string | null } | { readable: false; errors: TemplateError[] };

export function inspectTemplateText(text: string, format: DocumentFormat): InspectedTemplate {
  const checked = checkTemplateText(text, format);
  const root = checked.source.root;
  const version = root?.kind === "object" ? getEntry(root, "specificationVersion")?.value : undefined;
  const kind = version?.kind === "string" && Object.hasOwn(VERSIONS, version.value) ? VERSIONS[version.value]! : null;
  if (kind === null) return { readable: false, errors: checked.errors };
  const name = root?.kind === "object" ? getEntry(root, "name")?.value : undefined;
  return { readable: true, kind, errors: checked.errors, jobName: name?.kind === "string" ? name.value : null };
}

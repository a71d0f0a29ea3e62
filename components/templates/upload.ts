/** Reading what an artist drops into the library: which kind of file it is, its name, its bytes as base64. */
import { suggestedName } from "@/components/editor/starter-template";
import { detectFormat, type DocumentFormat } from "@/lib/openjd";

export type UploadKind = DocumentFormat | "zip";

export const UPLOAD_ACCEPT = ".yaml,.yml,.json,.zip";

export function uploadKind(fileName: string): UploadKind | null {
  return fileName.toLowerCase().endsWith(".zip") ? "zip" : detectFormat(fileName);
}

/** The file's name without its extension; a bundle-style `template.yaml` takes the template's own name. */
export function libraryName(fileName: string, text: string): string {
  const stem = fileName.replace(/^.*[\\/]/, "").replace(/\.(ya?ml|json)$/i, "");
  return stem === "" || stem.toLowerCase() === "template" ? suggestedName(text) : stem;
}

/** Base64 without building one huge argument list (bundles may be megabytes). */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

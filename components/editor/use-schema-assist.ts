"use client";

import { useEffect } from "react";
import type { DocumentFormat } from "@/lib/openjd";
import type { Monaco } from "./monaco-setup";
import { hoverAt, suggestionsAt } from "./schema-assist";

const LANGUAGES: readonly DocumentFormat[] = ["yaml", "json"];

/**
 * Completions and hover docs from the template JSON Schema for YAML and JSON models. Providers
 * are global to Monaco, so they are registered once per mounted editor and disposed with it.
 */
export function useSchemaAssist(monaco: Monaco | null) {
  useEffect(() => {
    if (!monaco) return;
    const registrations = LANGUAGES.flatMap((language) => [
      monaco.languages.registerCompletionItemProvider(language, {
        triggerCharacters: [" ", ":", '"', "-"],
        provideCompletionItems(model, position) {
          const offset = model.getOffsetAt(position);
          const { replaceFrom, items } = suggestionsAt(model.getValue(), offset, language);
          const start = model.getPositionAt(replaceFrom);
          const range = new monaco.Range(start.lineNumber, start.column, position.lineNumber, position.column);
          return {
            suggestions: items.map((item) => ({
              label: item.label,
              insertText: item.insertText,
              kind: item.kind === "property" ? monaco.languages.CompletionItemKind.Property : monaco.languages.CompletionItemKind.EnumMember,
              detail: item.detail,
              documentation: item.documentation ? { value: item.documentation } : undefined,
              range,
            })),
          };
        },
      }),
      monaco.languages.registerHoverProvider(language, {
        provideHover(model, position) {
          const hover = hoverAt(model.getValue(), model.getOffsetAt(position), language);
          if (!hover) return null;
          const start = model.getPositionAt(hover.start);
          const end = model.getPositionAt(hover.end);
          return { contents: [{ value: hover.contents }], range: new monaco.Range(start.lineNumber, start.column, end.lineNumber, end.column) };
        },
      }),
    ]);
    return () => registrations.forEach((r) => r.dispose());
  }, [monaco]);
}

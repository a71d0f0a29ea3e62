"use client";

import Editor from "@monaco-editor/react";
import { useCallback, useMemo, useState } from "react";
import type { editor } from "monaco-editor";
import type { DocumentFormat, TemplateError } from "@/lib/openjd";
import { monaco as localMonaco, type Monaco } from "./monaco-setup";
import { useCursorPosition } from "./use-cursor-position";
import { useSchemaAssist } from "./use-schema-assist";
import { useTemplateMarkers } from "./use-template-markers";

export interface CodeEditorProps {
  value: string;
  format: DocumentFormat;
  errors: readonly TemplateError[];
  onChange: (text: string) => void;
  /** The editor instance once mounted (the error list moves its cursor). */
  onReady?: (instance: editor.IStandaloneCodeEditor | null) => void;
}

/**
 * Monaco as a controlled component (CONVENTIONS rule 9): the text and format come from the
 * parent; markers, completions and hover docs are hooks that dispose what they register.
 * Loaded with next/dynamic `ssr: false`: Monaco needs a browser.
 */
export default function CodeEditor({ value, format, errors, onChange, onReady }: CodeEditorProps) {
  const [instance, setInstance] = useState<editor.IStandaloneCodeEditor | null>(null);
  const [monaco, setMonaco] = useState<Monaco | null>(null);
  useTemplateMarkers(monaco, instance, errors);
  useSchemaAssist(monaco);
  // Stable across keystrokes: @monaco-editor/react calls updateOptions whenever `options` is a new
  // object, and re-subscribes to content changes whenever `onChange` is a new function.
  const options = useMemo(() => editorOptions(format), [format]);
  const change = useCallback((text: string | undefined) => onChange(text ?? ""), [onChange]);
  const theme = typeof window !== "undefined" && window.matchMedia?.("(prefers-color-scheme: dark)").matches ? "vs-dark" : "vs";
  return (
    <div className="code-editor">
      <Editor
        height="100%"
        language={format}
        value={value}
        theme={theme}
        path="template"
        loading={<p className="muted">Loading the editor…</p>}
        onChange={change}
        beforeMount={() => setMonaco(localMonaco)}
        onMount={(mounted) => {
          mounted.onDidDispose(() => onReady?.(null));
          setInstance(mounted);
          onReady?.(mounted);
        }}
        options={options}
      />
      <EditorStatus instance={instance} format={format} />
    </div>
  );
}

function editorOptions(format: DocumentFormat): editor.IStandaloneEditorConstructionOptions {
  return {
    minimap: { enabled: false },
    fontSize: 13,
    tabSize: 2,
    insertSpaces: true,
    scrollBeyondLastLine: false,
    automaticLayout: true,
    quickSuggestions: { other: true, strings: true, comments: false },
    ariaLabel: `Template text (${format.toUpperCase()})`,
    renderValidationDecorations: "on",
  };
}

/** The status line on its own, so a cursor move re-renders it and not the editor. */
function EditorStatus({ instance, format }: { instance: editor.IStandaloneCodeEditor | null; format: DocumentFormat }) {
  const cursor = useCursorPosition(instance);
  return (
    <p className="editor-status muted" aria-live="off">
      <span aria-label="Cursor position">
        Ln {cursor.lineNumber}, Col {cursor.column}
      </span>
      <span>{format.toUpperCase()}</span>
    </p>
  );
}

"use client";

import { useEffect } from "react";
import type { editor } from "monaco-editor";
import type { TemplateError } from "@/lib/openjd";
import type { Monaco } from "./monaco-setup";
import { markerSpans } from "./marker-spans";

const OWNER = "openjd";

/** lib/openjd's errors as Monaco markers on the editor's model; cleared when the editor goes. */
export function useTemplateMarkers(monaco: Monaco | null, instance: editor.IStandaloneCodeEditor | null, errors: readonly TemplateError[]) {
  useEffect(() => {
    const model = instance?.getModel();
    if (!monaco || !model) return;
    const lines = Array.from({ length: model.getLineCount() }, (_, i) => model.getLineContent(i + 1));
    const markers = markerSpans(lines, errors).map((span) => ({ ...span, severity: monaco.MarkerSeverity.Error, source: "openjd" }));
    monaco.editor.setModelMarkers(model, OWNER, markers);
    return () => {
      if (!model.isDisposed()) monaco.editor.setModelMarkers(model, OWNER, []);
    };
  }, [monaco, instance, errors]);
}

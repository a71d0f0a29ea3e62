/**
 * Monaco from the app's own bundle (STACK.md "Monaco from the local package"): the default
 * loader points at a CDN, which the portal never contacts. Import this only from client modules
 * loaded with `ssr: false`. JSON keeps its own worker for folding and symbols; its completions,
 * hovers and diagnostics are switched off because lib/openjd and our schema providers give them
 * for YAML and JSON alike.
 */
import { loader } from "@monaco-editor/react";
import * as monaco from "monaco-editor";

self.MonacoEnvironment = {
  getWorker: (_workerId: string, label: string) =>
    label === "json"
      ? new Worker(new URL("monaco-editor/language/json/json.worker.js", import.meta.url), { type: "module" })
      : new Worker(new URL("monaco-editor/editor/editor.worker.js", import.meta.url), { type: "module" }),
};

loader.config({ monaco });

monaco.json.jsonDefaults.setModeConfiguration({
  ...monaco.json.jsonDefaults.modeConfiguration,
  completionItems: false,
  hovers: false,
  diagnostics: false,
});

export { monaco };
export type Monaco = typeof monaco;

"use client";

import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { detectContentFormat } from "@/components/editor/convert-format";
import { suggestedName } from "@/components/editor/starter-template";
import { useTRPC } from "@/components/trpc";
import { NoticeLine, type Notice } from "@/components/ui/notice";
import { bytesToBase64, libraryName, UPLOAD_ACCEPT, uploadKind } from "./upload";
import { useLibrarySave } from "./use-library-save";

/** Upload a template file or a job bundle (.zip), or paste a template, into the library; over an existing name it asks first. */
export function AddTemplates() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [notice, setNotice] = useState<Notice | null>(null);
  const [pasted, setPasted] = useState("");
  const [pastedName, setPastedName] = useState("");
  const refresh = () => queryClient.invalidateQueries(trpc.templates.list.queryFilter());
  const done = (saved: { name: string; kind: string; errorCount: number; replaced: boolean }) => {
    const errors = saved.errorCount === 0 ? "no errors" : `${saved.errorCount} error${saved.errorCount === 1 ? "" : "s"}`;
    setNotice({ tone: "good", text: `${saved.replaced ? "Updated" : "Saved"} “${saved.name}” (${saved.kind} template, ${errors}).` });
    void refresh();
  };
  const failed = (error: { message: string }) => setNotice({ tone: "bad", text: `Not saved: ${error.message}` });
  const library = useLibrarySave({ onSaved: done, onFailed: failed });
  const busy = library.busy;

  const onFile = async (file: File) => {
    const kind = uploadKind(file.name);
    if (kind === null) return setNotice({ tone: "bad", text: `“${file.name}” is not a template (.yaml, .yml, .json) or a job bundle (.zip).` });
    if (kind === "zip") return library.importBundle({ fileName: file.name, base64: bytesToBase64(new Uint8Array(await file.arrayBuffer())) });
    const text = await file.text();
    library.save({ name: libraryName(file.name, text), text, format: kind });
  };

  return (
    <section aria-labelledby="add-heading">
      <h2 id="add-heading">Add templates</h2>
      <div className="add-templates">
        <div>
          <label htmlFor="template-file">Upload a template or a job bundle</label>
          <input
            id="template-file"
            type="file"
            accept={UPLOAD_ACCEPT}
            disabled={busy}
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = "";
              if (file) void onFile(file);
            }}
          />
          <p className="muted">YAML or JSON job and environment templates, or a job bundle .zip (template.yaml|json with parameter_values, which are kept with it).</p>
        </div>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            library.save({ name: pastedName.trim() || suggestedName(pasted), text: pasted, format: detectContentFormat(pasted) });
          }}
        >
          <label htmlFor="pasted-template">Paste a template</label>
          <textarea id="pasted-template" className="paste-area" value={pasted} spellCheck={false} onChange={(e) => setPasted(e.target.value)} placeholder="specificationVersion: jobtemplate-2023-09" />
          <div className="toolbar">
            <label className="inline-label">
              Name
              <input value={pastedName} onChange={(e) => setPastedName(e.target.value)} placeholder={pasted ? suggestedName(pasted) : "from the template"} maxLength={128} />
            </label>
            <button type="submit" className="primary" disabled={busy || pasted.trim() === ""}>
              Save pasted template
            </button>
          </div>
        </form>
      </div>
      <NoticeLine notice={notice} />
      {library.dialog}
    </section>
  );
}

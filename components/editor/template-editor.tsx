"use client";

import { useQuery, useQueryClient } from "@tanstack/react-query";
import dynamic from "next/dynamic";
import { useRouter } from "next/navigation";
import { useDeferredValue, useMemo, useRef, useState } from "react";
import type { editor } from "monaco-editor";
import { checkTemplateText, type DocumentFormat, ENVIRONMENT_TEMPLATE_SCHEMA, schemaForText, type TemplateError } from "@/lib/openjd";
import { RULES } from "@/lib/farm/access";
import { useAllows } from "@/components/auth/me";
import { useTRPC } from "@/components/trpc";
import { NoticeLine, type Notice } from "@/components/ui/notice";
import { useLibrarySave } from "@/components/templates/use-library-save";
import { convertTemplate, detectContentFormat } from "./convert-format";
import { ErrorList } from "./error-list";
import { FormatSwitch } from "./format-switch";
import { STARTER_TEMPLATE, suggestedName } from "./starter-template";
import "./editor.css";

const CodeEditor = dynamic(() => import("./code-editor"), {
  ssr: false,
  loading: () => (
    <div className="code-editor">
      <p className="muted">Loading the editor…</p>
    </div>
  ),
});

interface Initial {
  id: string;
  name: string;
  text: string;
  updatedAt: number;
}

/** /editor: a new template, or `?template=<id>` opened from the library. */
export function TemplateEditor({ templateId }: { templateId: string | null }) {
  const trpc = useTRPC();
  const library = useQuery({ ...trpc.templates.get.queryOptions({ id: templateId ?? "" }), enabled: templateId !== null });
  if (templateId !== null && library.isPending) return <p className="muted">Opening the template from the library…</p>;
  return (
    <>
      {library.error ? (
        <p className="error-text">
          Could not open library template {templateId}: {library.error.message}. Starting a new one.
        </p>
      ) : null}
      <EditorWorkspace key={library.data?.id ?? "new"} initial={library.data ?? null} />
    </>
  );
}

function EditorWorkspace({ initial }: { initial: Initial | null }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const [text, setText] = useState(initial?.text ?? STARTER_TEMPLATE);
  const [name, setName] = useState(initial?.name ?? "");
  const [notice, setNotice] = useState<Notice | null>(null);
  const instance = useRef<editor.IStandaloneCodeEditor | null>(null);
  // Viewers read and check templates; saving and submitting are for artists and up.
  const maySave = useAllows(RULES.submit);

  const format = detectContentFormat(text);
  // Checking waits for a pause in typing on big templates rather than delaying each key.
  const checkedText = useDeferredValue(text);
  const checked = useMemo(() => checkTemplateText(checkedText, detectContentFormat(checkedText)), [checkedText]);
  const errors = checked.errors;
  const kind = schemaForText(text) === ENVIRONMENT_TEMPLATE_SCHEMA ? "environment" : "job";
  const suggested = suggestedName(text);
  const saveName = name.trim() || suggested;

  // The library entry this editor holds (opened or last saved): saving it again under its own
  // name replaces that version without asking; any other entry of the name is asked about.
  const [entry, setEntry] = useState(initial ? { id: initial.id, name: initial.name, updatedAt: initial.updatedAt } : null);
  const thenSubmit = useRef(false);
  const save = useLibrarySave({
    onSaved: (saved) => {
      void queryClient.invalidateQueries(trpc.templates.list.queryFilter());
      void queryClient.invalidateQueries(trpc.templates.get.queryFilter({ id: saved.id }));
      setName(saved.name);
      setEntry({ id: saved.id, name: saved.name, updatedAt: saved.updatedAt });
      const errorsNote = saved.errorCount === 0 ? "" : ` with ${saved.errorCount} error${saved.errorCount === 1 ? "" : "s"}`;
      setNotice({ tone: "good", text: `${saved.replaced ? "Updated" : "Saved"} “${saved.name}” in the library${errorsNote}.` });
      if (thenSubmit.current) return router.push(`/submit?template=${encodeURIComponent(saved.id)}`);
      // Keep the address pointing at the saved template without remounting the editor.
      window.history.replaceState(null, "", `/editor?template=${encodeURIComponent(saved.id)}`);
    },
    onFailed: (error) => setNotice({ tone: "bad", text: `Not saved: ${error.message}` }),
  });

  const saveTemplate = (andSubmit: boolean) => {
    thenSubmit.current = andSubmit;
    save.save({ name: saveName, text, format, ...(entry && entry.name === saveName ? { replace: { id: entry.id, updatedAt: entry.updatedAt } } : {}) });
  };

  const switchFormat = (target: DocumentFormat) => {
    const converted = convertTemplate(text, format, target);
    if (converted.ok) {
      setText(converted.text);
      setNotice(null);
    } else setNotice({ tone: "bad", text: `Not converted: ${converted.message}` });
  };

  const moveTo = (error: TemplateError) => {
    const target = instance.current;
    if (!target) return;
    const position = { lineNumber: error.line ?? 1, column: error.column ?? 1 };
    target.setPosition(position);
    target.revealPositionInCenterIfOutsideViewport(position);
    target.focus();
  };

  return (
    <>
      <div className="toolbar editor-toolbar">
        {maySave && (
          <>
            <label className="inline-label">
              Template name
              <input value={name} onChange={(e) => setName(e.target.value)} placeholder={suggested} maxLength={128} />
            </label>
            <button type="button" className="primary" onClick={() => saveTemplate(false)} disabled={save.busy}>
              Save to library
            </button>
            <button
              type="button"
              onClick={() => saveTemplate(true)}
              disabled={save.busy || kind !== "job"}
              title={kind !== "job" ? "Environment templates are applied around jobs, not submitted" : undefined}
            >
              Submit with this template
            </button>
          </>
        )}
        <FormatSwitch format={format} onSwitch={switchFormat} />
      </div>
      <NoticeLine notice={notice} />
      {save.dialog}
      <div className="editor-layout">
        <CodeEditor value={text} format={format} errors={errors} onChange={setText} onReady={(e) => (instance.current = e)} />
        <ErrorList errors={errors} kind={kind} onSelect={moveTo} />
      </div>
    </>
  );
}

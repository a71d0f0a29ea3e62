"use client";

import { useMemo, useState } from "react";
import { describeError } from "@/lib/openjd/errors";
import { checkTemplateText } from "@/lib/openjd/template";

const EXAMPLE = `specificationVersion: jobtemplate-2023-09
name: Render {{Param.Frames}}
parameterDefinitions:
- name: Frames
  type: STRING
  default: 1-10
steps:
- name: Render
  parameterSpace:
    taskParameterDefinitions:
    - name: Frame
      type: INT
      range: "{{Param.Frames}}"
  script:
    actions:
      onRun:
        command: echo
        args: ["frame {{Task.Param.Frame}}"]
`;

/** Validates a template in the browser with lib/openjd, as the portal's editor will. */
export function TemplateCheck() {
  const [text, setText] = useState(EXAMPLE);
  const result = useMemo(() => checkTemplateText(text, text.trimStart().startsWith("{") ? "json" : "yaml"), [text]);
  return (
    <section aria-labelledby="check-heading">
      <label id="check-heading" htmlFor="template-text">
        Template (YAML or JSON)
      </label>
      <textarea id="template-text" value={text} spellCheck={false} onChange={(e) => setText(e.target.value)} />
      <div role="status" aria-live="polite">
        {result.errors.length === 0 ? (
          <p className="status-good">
            Valid {result.template?.kind === "environment" ? "environment" : "job"} template.
          </p>
        ) : (
          <>
            <p className="status-bad">
              {result.errors.length} error{result.errors.length === 1 ? "" : "s"}
            </p>
            <ul className="errors">
              {result.errors.map((error, i) => (
                <li key={i}>{describeError(error)}</li>
              ))}
            </ul>
          </>
        )}
      </div>
    </section>
  );
}

/** What a new template starts as, and the library name suggested for a text. */
import { unquote } from "./cursor-context";

export const STARTER_TEMPLATE = `specificationVersion: jobtemplate-2023-09
name: Render {{Param.Frames}}
parameterDefinitions:
- name: Frames
  type: STRING
  description: Frames to render, as a range expression
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

/**
 * The template's own name (a job's `name`, an environment's `environment.name`) with format
 * strings left as written, else "Untitled template".
 */
export function suggestedName(text: string): string {
  const job = /^["']?name["']?\s*:\s*(.+?)\s*,?\s*$/m.exec(text);
  const env = /^\s+["']?name["']?\s*:\s*(.+?)\s*,?\s*$/m.exec(text);
  const raw = (job ?? env)?.[1] ?? "";
  return unquote(raw).trim().slice(0, 128) || "Untitled template";
}

/**
 * What happens to each line an action prints (spec digest §12.4–§12.5): openjd_* messages become
 * events, environment directives change the Session's variables (only from an environment's
 * onEnter), redacted values are registered and masked before the line reaches any sink.
 */
import type { VariableChange } from "./environment-variables";
import type { EventSink } from "./events";
import { parseOutputLine } from "../../lib/openjd";
import { type Redactor, redactedEnvLine } from "./redaction";

export interface LineTarget {
  actionId: string;
  /** Environment actions parse env directives strictly (malformed ones fail the action). */
  inEnvironmentAction: boolean;
  /** Where openjd_env / openjd_redacted_env / openjd_unset_env changes go. */
  applyChange: (change: VariableChange) => void;
  /** Whether openjd_redacted_env sets its variable (the document declares REDACTED_ENV_VARS). */
  redactedSetsVariable: boolean;
}

export interface LineState {
  failMessage: string | null;
}

/** Returns "fail" when the line requires the action to be canceled and marked failed. */
export function handleLine(raw: string, target: LineTarget, state: LineState, redactor: Redactor, emit: EventSink): void | "fail" {
  const parsed = parseOutputLine(raw, { inEnvironmentAction: target.inEnvironmentAction });
  const message = parsed.message;
  // Register new secrets (even from a malformed directive) before logging the line that carries them.
  for (const secret of parsed.redact) redactor.add(secret);
  const shown = parsed.redact.length > 0 ? redactedEnvLine(raw, message?.kind === "redacted_env" ? message.name : undefined) : raw;
  const time = Date.now();
  // The annotation may quote the line, so it is redacted too.
  emit({ type: "log", actionId: target.actionId, line: redactor.redact(shown + (parsed.annotation ?? "")), time });
  if (message) {
    switch (message.kind) {
      case "progress":
        emit({ type: "progress", actionId: target.actionId, value: message.value, time });
        break;
      case "status":
        emit({ type: "status", actionId: target.actionId, message: redactor.redact(message.message), time });
        break;
      case "fail": {
        const failMessage = redactor.redact(message.message);
        state.failMessage = failMessage;
        emit({ type: "fail_message", actionId: target.actionId, message: failMessage, time });
        break;
      }
      // env_change events report changes to the Session's environment, which only environment
      // actions make; a task's exports are kept for WrappedAction.Environment alone.
      case "env":
        target.applyChange({ kind: "set", name: message.name, value: message.value });
        if (target.inEnvironmentAction) emit({ type: "env_change", actionId: target.actionId, name: message.name, change: "set", value: redactor.redact(message.value), time });
        break;
      case "redacted_env":
        if (target.redactedSetsVariable) {
          target.applyChange({ kind: "set", name: message.name, value: message.value });
          if (target.inEnvironmentAction) emit({ type: "env_change", actionId: target.actionId, name: message.name, change: "set", redacted: true, time });
        }
        break;
      case "unset_env":
        target.applyChange({ kind: "unset", name: message.name });
        if (target.inEnvironmentAction) emit({ type: "env_change", actionId: target.actionId, name: message.name, change: "unset", time });
        break;
      case "loglevel":
        break;
    }
  }
  if (parsed.fatal) {
    const failMessage = redactor.redact(parsed.fatal.failMessage);
    state.failMessage = failMessage;
    emit({ type: "fail_message", actionId: target.actionId, message: failMessage, time });
    return "fail";
  }
}

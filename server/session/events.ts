/**
 * The one structured event stream of a Session: `loom run --json` prints it as JSON lines and the
 * worker agent ships it to the server. Log lines are already redacted; environment changes never
 * carry redacted values.
 */
import type { ActionKind } from "../../lib/farm/statuses";
import type { TaskParameterSet } from "../../lib/openjd";

export type { ActionKind };

/** How an action ended (DESIGN vocabulary; TIMEOUT is a failure reported as such). */
export const ACTION_END_STATUSES = ["SUCCEEDED", "FAILED", "CANCELED", "TIMEOUT", "NEVER_ATTEMPTED"] as const;
export type ActionEndStatus = (typeof ACTION_END_STATUSES)[number];

export type SessionEndStatus = "SUCCEEDED" | "FAILED" | "CANCELED";

interface Base {
  /** Milliseconds since the epoch. */
  time: number;
}

export type SessionEvent =
  | (Base & { type: "session_started"; sessionId: string; workingDirectory: string })
  | (Base & {
      type: "action_started";
      actionId: string;
      kind: ActionKind;
      /** Environment name, or the step name for a task. */
      name: string;
      step?: string;
      parameters?: TaskParameterSet;
      /** The wrap hook that runs in place of the action (WRAP_ACTIONS), if any. */
      wrappedBy?: string;
    })
  | (Base & { type: "log"; actionId: string | null; line: string })
  | (Base & { type: "progress"; actionId: string; value: number })
  | (Base & { type: "status"; actionId: string; message: string })
  | (Base & { type: "fail_message"; actionId: string; message: string })
  | (Base & { type: "env_change"; actionId: string; name: string; change: "set" | "unset"; value?: string; redacted?: boolean })
  | (Base & {
      type: "action_ended";
      actionId: string;
      status: ActionEndStatus;
      exitCode: number | null;
      durationMs: number;
      failMessage?: string;
    })
  | (Base & { type: "session_ended"; status: SessionEndStatus; workingDirectory: string; preserved: boolean });

export type EventSink = (event: SessionEvent) => void;

/**
 * What the executor lends each WorkerSession: where updates, log lines and notices go, and the
 * worker-wide state a Session needs (draining, the clock, Session options).
 */
import type { AssignedAction, ActionUpdate } from "../../lib/farm/protocol";
import type { SessionEndStatus } from "../session/events";
import type { ProcessLauncher } from "../session/subprocess";
import type { LogShipper } from "./log-shipper";
import type { UpdateQueue } from "./update-queue";

/** Notable events, one line each in `loom worker`'s output. */
export type ExecutorNotice =
  | { type: "session_started"; sessionId: string; jobName: string; workingDirectory: string }
  | { type: "session_ended"; sessionId: string; status: SessionEndStatus }
  | { type: "action_ended"; sessionId: string; action: AssignedAction; status: ActionUpdate["status"]; failMessage: string | null };

export interface SessionRuntimeOptions {
  /** Where Session working directories are made (default: the OS temp dir's loom-sessions). */
  rootDirectory?: string;
  /** The process environment actions start from (default: the worker's); Loom credentials are always taken out. */
  baseEnvironment?: Readonly<Record<string, string>>;
  /** What every action runs inside: the task shield (task-shield.ts) when the worker has one. */
  launcher?: ProcessLauncher;
}

export interface SessionHost {
  readonly updates: UpdateQueue;
  readonly logs: LogShipper;
  readonly sessionOptions: SessionRuntimeOptions;
  now(): number;
  /** The worker is shutting down: no new enters or tasks. */
  draining(): boolean;
  /** Something the server should hear about now (an action or Session ended). */
  urgent(): void;
  /** Something the server should hear about within a moment (an action started running). */
  soon(): void;
  notice(notice: ExecutorNotice): void;
  sessionEnded(sessionId: string, status: SessionEndStatus): void;
}

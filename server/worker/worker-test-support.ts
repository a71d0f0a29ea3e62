/**
 * Helpers for the worker tests: job definitions from YAML as the server stores them, action
 * builders, and an executor harness that collects every update, notice and log line, with
 * real subprocesses under a private temporary Session root.
 */
import { createServer } from "node:net";
import type { ActionUpdate, AssignedAction, JobDefinition, SessionAssignment } from "../../lib/farm/protocol";
import { TERMINAL_ACTION_STATUSES } from "../../lib/farm/statuses";
import { dedent, eventually, TEST_PATH, tempRoot } from "../session/session-test-support";
import { LogShipper, type LogLine } from "./log-shipper";
import { SessionExecutor } from "./session-executor";
import type { ExecutorNotice } from "./session-host";

export function definition(id: string, yaml: string, parameters: JobDefinition["parameters"] = {}): JobDefinition {
  return { id, templateText: dedent(yaml), templateFormat: "yaml", environmentTemplates: [], parameters };
}

export const enter = (actionId: string, environmentId: string, stepName?: string): AssignedAction => ({ actionId, kind: "ENV_ENTER", environmentId, ...(stepName ? { stepName } : {}) });
export const exit = (actionId: string, environmentId: string, stepName?: string): AssignedAction => ({ actionId, kind: "ENV_EXIT", environmentId, ...(stepName ? { stepName } : {}) });
export const task = (actionId: string, stepName: string, parameters: Record<string, string | number> = {}, type = "INT"): AssignedAction => ({
  actionId,
  kind: "TASK_RUN",
  stepName,
  parameters: Object.fromEntries(Object.entries(parameters).map(([k, v]) => [k, { type, value: String(v) }])),
});

export function assignment(sessionId: string, job: JobDefinition, actions: AssignedAction[], end = false): SessionAssignment {
  return { sessionId, job, actions, end };
}

/** `eventually`, failing with what was awaited. */
export async function waitUntil(condition: () => boolean, what: string, ms = 20_000): Promise<void> {
  if (!(await eventually(condition, ms))) throw new Error(`timed out waiting for ${what}`);
}

/** A URL where nothing listens (a server that is down). */
export async function deadUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

export class ExecutorHarness {
  readonly root = tempRoot();
  readonly logs = new LogShipper();
  readonly updates: ActionUpdate[] = [];
  readonly notices: ExecutorNotice[] = [];
  urgentCount = 0;
  readonly executor = new SessionExecutor({
    logs: this.logs,
    rootDirectory: this.root,
    baseEnvironment: { PATH: TEST_PATH },
    onUrgent: () => this.urgentCount++,
    onNotice: (notice) => this.notices.push(notice),
  });

  /** Takes the executor's updates into `updates`. */
  collect(): ActionUpdate[] {
    this.updates.push(...this.executor.takeUpdates());
    return this.updates;
  }

  final(actionId: string): ActionUpdate | undefined {
    return this.collect().find((u) => u.actionId === actionId && TERMINAL_ACTION_STATUSES.has(u.status));
  }

  status(actionId: string): string | undefined {
    return this.final(actionId)?.status;
  }

  async waitForEnd(...actionIds: string[]): Promise<void> {
    await waitUntil(() => actionIds.every((id) => this.final(id) !== undefined), `actions ${actionIds.join(", ")} to end`);
  }

  /** Every log line held for the Session (nothing acknowledged in these tests). */
  lines(sessionId: string): LogLine[] {
    return this.logs.takeBatch(sessionId, 1_000_000);
  }

  linesOf(sessionId: string, actionId: string): string[] {
    return this.lines(sessionId)
      .filter((l) => l.actionId === actionId)
      .map((l) => l.line);
  }

  async waitForLine(sessionId: string, text: string): Promise<void> {
    await waitUntil(() => this.lines(sessionId).some((l) => l.line.includes(text)), `a log line with '${text}'`);
  }

  /** Final statuses in the order the actions ended. */
  endOrder(): string[] {
    return this.collect()
      .filter((u) => TERMINAL_ACTION_STATUSES.has(u.status))
      .map((u) => `${u.actionId} ${u.status}`);
  }
}

/**
 * `loom worker --shield auto|on|off`: whether tasks run inside the task shield (task-shield.ts).
 * `auto` tries it once at start and, where it does not work, says so in one line and runs
 * without; `on` refuses to start without it; `off` runs without it and says nothing.
 */
import { TaskShield, type TaskShieldOptions } from "./task-shield";

export const SHIELD_MODES = ["auto", "on", "off"] as const;
export type ShieldMode = (typeof SHIELD_MODES)[number];

export const SHARED_HOSTS_ADVICE = "on a shared host, run the worker as an OS user of its own and its tasks as another (README, 'Shared hosts')";

export type ShieldChoice = { shield: TaskShield | null; warning: string | null } | { refused: string };

export async function chooseShield(mode: ShieldMode, options: TaskShieldOptions): Promise<ShieldChoice> {
  if (mode === "off") return { shield: null, warning: null };
  const created = TaskShield.create(options);
  const reason = created instanceof TaskShield ? await created.probe() : created.unavailable;
  if (reason === null && created instanceof TaskShield) return { shield: created, warning: null };
  if (mode === "on") return { refused: `--shield on: the task shield does not work here: ${reason}` };
  return {
    shield: null,
    warning: `warning: running tasks without the task shield (${reason}): tasks can read every file this OS user can (token files, the farm database); ${SHARED_HOSTS_ADVICE}`,
  };
}

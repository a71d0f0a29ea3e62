/**
 * Arrow keys in an admin table: Up and Down move focus to the control in the same place of the
 * row above or below (Tab still walks every control). Pure index logic, tested; the handler
 * wires it to the DOM.
 */
import type { KeyboardEvent } from "react";

const FOCUSABLE = "a[href], button:not([disabled]), summary, input, select";

/** Where focus goes: [row, control] in the target row, or null to leave the key alone. */
export function nextFocus(key: string, row: number, control: number, rowCount: number, controlsIn: (row: number) => number): [number, number] | null {
  if (key !== "ArrowDown" && key !== "ArrowUp") return null;
  const target = key === "ArrowDown" ? row + 1 : row - 1;
  if (target < 0 || target >= rowCount) return null;
  const count = controlsIn(target);
  if (count === 0) return null;
  return [target, Math.min(control, count - 1)];
}

export function moveBetweenRows(event: KeyboardEvent<HTMLTableSectionElement>): void {
  const rows = [...event.currentTarget.rows];
  const controls = (r: number) => [...(rows[r]?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])];
  const active = document.activeElement as HTMLElement | null;
  const row = rows.findIndex((r) => active !== null && r.contains(active));
  if (row < 0 || !active) return;
  const target = nextFocus(event.key, row, controls(row).indexOf(active), rows.length, (r) => controls(r).length);
  if (!target) return;
  event.preventDefault();
  controls(target[0])[target[1]]?.focus();
}

/**
 * Row selection of the task table, as file managers do it: click selects one row, shift-click a
 * range from the anchor, ctrl/cmd-click toggles one (ctrl+shift adds a range); arrows move the
 * focus and select it, shift+arrows extend, space toggles, ctrl+a selects all, Escape clears.
 * Rows are positions in the current list (the server pages by position), so a selection can span
 * rows the browser has not loaded yet. Pure: the table only renders what this returns.
 */

export interface Selection {
  selected: ReadonlySet<number>;
  /** Where a shift-range starts. */
  anchor: number | null;
  /** The keyboard's row. */
  focus: number | null;
}

export const EMPTY_SELECTION: Selection = { selected: new Set(), anchor: null, focus: null };

export interface Modifiers {
  shift?: boolean;
  /** Ctrl on Linux/Windows, Cmd on macOS. */
  toggle?: boolean;
}

function range(a: number, b: number): number[] {
  const [lo, hi] = a <= b ? [a, b] : [b, a];
  return Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);
}

export function clickRow(sel: Selection, row: number, mods: Modifiers = {}): Selection {
  if (mods.shift && sel.anchor !== null) {
    const base = mods.toggle ? [...sel.selected] : [];
    return { selected: new Set([...base, ...range(sel.anchor, row)]), anchor: sel.anchor, focus: row };
  }
  if (mods.toggle) return toggleRow(sel, row);
  return { selected: new Set([row]), anchor: row, focus: row };
}

export function toggleRow(sel: Selection, row: number): Selection {
  const selected = new Set(sel.selected);
  if (selected.has(row)) selected.delete(row);
  else selected.add(row);
  return { selected, anchor: row, focus: row };
}

export function selectAll(sel: Selection, count: number): Selection {
  if (count === 0) return EMPTY_SELECTION;
  return { selected: new Set(range(0, count - 1)), anchor: sel.anchor ?? 0, focus: sel.focus ?? 0 };
}

/** A key press in the table; null when the key is not the table's (let the browser have it). */
export function keyDown(sel: Selection, key: string, mods: Modifiers, count: number, pageRows = 20): Selection | null {
  if (count === 0) return null;
  const focus = sel.focus ?? -1;
  const last = count - 1;
  const moves: Record<string, number> = { ArrowUp: focus - 1, ArrowDown: focus + 1, Home: 0, End: last, PageUp: focus - pageRows, PageDown: focus + pageRows };
  if (key in moves) {
    const to = Math.min(last, Math.max(0, moves[key]!));
    if (mods.shift) {
      const anchor = sel.anchor ?? Math.max(0, focus);
      return { selected: new Set(range(anchor, to)), anchor, focus: to };
    }
    if (mods.toggle) return { ...sel, focus: to };
    return { selected: new Set([to]), anchor: to, focus: to };
  }
  if (key === " ") return toggleRow(sel, Math.max(0, focus));
  if ((key === "a" || key === "A") && mods.toggle) return selectAll(sel, count);
  if (key === "Escape") return { selected: new Set(), anchor: null, focus: sel.focus };
  return null;
}

/** Drops rows past the end (the list shrank, e.g. a status filter after a retry). */
export function clampSelection(sel: Selection, count: number): Selection {
  const inside = (row: number | null) => (row === null || row < count ? row : count > 0 ? count - 1 : null);
  const selected = [...sel.selected].filter((row) => row < count);
  if (selected.length === sel.selected.size && inside(sel.focus) === sel.focus && inside(sel.anchor) === sel.anchor) return sel;
  return { selected: new Set(selected), anchor: inside(sel.anchor), focus: inside(sel.focus) };
}

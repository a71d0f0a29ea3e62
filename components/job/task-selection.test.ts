import { describe, expect, it } from "vitest";
import { clampSelection, clickRow, EMPTY_SELECTION, keyDown, selectAll, toggleRow, type Selection } from "./task-selection";

const sel = (selected: number[], anchor: number | null = null, focus: number | null = anchor): Selection => ({ selected: new Set(selected), anchor, focus });
const rows = (s: Selection | null) => (s ? [...s.selected].sort((a, b) => a - b) : null);

describe("mouse", () => {
  it.each<[string, Selection, number, { shift?: boolean; toggle?: boolean }, number[], number | null]>([
    ["click selects only that row", sel([1, 2, 3], 1), 5, {}, [5], 5],
    ["shift-click selects from the anchor", sel([2], 2), 5, { shift: true }, [2, 3, 4, 5], 2],
    ["shift-click upwards", sel([5], 5), 2, { shift: true }, [2, 3, 4, 5], 5],
    ["shift-click replaces an earlier range", sel([0, 1, 2, 9], 2), 3, { shift: true }, [2, 3], 2],
    ["shift-click without an anchor is a click", EMPTY_SELECTION, 4, { shift: true }, [4], 4],
    ["ctrl-click adds a row", sel([1], 1), 4, { toggle: true }, [1, 4], 4],
    ["ctrl-click removes a selected row", sel([1, 4], 4), 1, { toggle: true }, [4], 1],
    ["ctrl+shift-click adds a range", sel([0, 5], 5), 7, { shift: true, toggle: true }, [0, 5, 6, 7], 5],
  ])("%s", (_name, from, row, mods, expected, anchor) => {
    const next = clickRow(from, row, mods);
    expect(rows(next)).toEqual(expected);
    expect(next.anchor).toBe(anchor);
    expect(next.focus).toBe(row);
  });
});

describe("keyboard", () => {
  it.each<[string, Selection, string, { shift?: boolean; toggle?: boolean }, number[] | null, number | null]>([
    ["down from nothing selects the first row", EMPTY_SELECTION, "ArrowDown", {}, [0], 0],
    ["down moves and selects", sel([3], 3), "ArrowDown", {}, [4], 4],
    ["up stops at the top", sel([0], 0), "ArrowUp", {}, [0], 0],
    ["down stops at the bottom", sel([9], 9), "ArrowDown", {}, [9], 9],
    ["shift+down extends from the anchor", sel([3], 3), "ArrowDown", { shift: true }, [3, 4], 4],
    ["shift+up back to the anchor shrinks the range", sel([3, 4], 3, 4), "ArrowUp", { shift: true }, [3], 3],
    ["ctrl+down moves the focus only", sel([3], 3), "ArrowDown", { toggle: true }, [3], 4],
    ["space toggles the focused row", sel([3], 3, 5), " ", {}, [3, 5], 5],
    ["space on a selected row unselects it", sel([3, 5], 3, 5), " ", {}, [3], 5],
    ["ctrl+a selects every row", sel([2], 2), "a", { toggle: true }, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], 2],
    ["plain a is not ours", sel([2], 2), "a", {}, null, null],
    ["Escape clears, keeps the focus", sel([2, 3], 2, 3), "Escape", {}, [], 3],
    ["End goes to the last row", sel([2], 2), "End", {}, [9], 9],
    ["shift+Home selects up to the top", sel([2], 2), "Home", { shift: true }, [0, 1, 2], 0],
    ["PageDown jumps and clamps", sel([5], 5), "PageDown", {}, [9], 9],
    ["other keys are the browser's", sel([2], 2), "Tab", {}, null, null],
  ])("%s", (_name, from, key, mods, expected, focus) => {
    const next = keyDown(from, key, mods, 10);
    expect(rows(next)).toEqual(expected);
    if (next) expect(next.focus).toBe(focus);
  });

  it("ignores keys in an empty table", () => {
    expect(keyDown(EMPTY_SELECTION, "ArrowDown", {}, 0)).toBeNull();
  });
});

describe("helpers", () => {
  it("toggleRow moves the anchor", () => {
    expect(toggleRow(sel([1], 1), 3)).toEqual(sel([1, 3], 3));
  });

  it("selectAll of nothing is empty", () => {
    expect(selectAll(sel([1], 1), 0)).toEqual(EMPTY_SELECTION);
  });

  it("clampSelection drops rows past a shrunken list and keeps the same object when nothing changes", () => {
    const s = sel([1, 4, 7], 7, 7);
    expect(clampSelection(s, 10)).toBe(s);
    expect(clampSelection(s, 5)).toEqual(sel([1, 4], 4, 4));
    expect(clampSelection(s, 0)).toEqual(sel([], null, null));
  });
});

/**
 * Columns laid out in the width a table has (issue 25). When every column fits, they stay as the
 * schema orders them. When they do not, the key columns (what a user must see of every row: its
 * number, name, state) are pinned, and the other columns scroll between them: those in the first half
 * of the columns at the left, those in the second half at the right, beside the row actions, so that
 * each keeps its side and the columns move as little as they can. Pure: the widths in, the columns out.
 */
export interface Fittable {
  key?: unknown;
  width?: unknown;
  fixed?: unknown;
}

/** A column without a width of its own is laid out as this wide (screen columns always have one). */
const UNSIZED = 140;
/** The room kept for the scrolling columns: less, and a scrolled column would show only a sliver. */
export const MIN_SCROLL = 120;

export const widthOf = (c: Fittable) => (typeof c.width === 'number' ? c.width : UNSIZED);
const sum = (columns: readonly Fittable[]) => columns.reduce((total, c) => total + widthOf(c), 0);

export interface Fitted<C> {
  columns: C[];
  /** The columns are wider than the room: the unpinned ones scroll. */
  overflow: boolean;
  /** Every key column is in view without scrolling (pinned, or all columns fit). */
  keysInView: boolean;
  /** The columns' total width. */
  width: number;
}

/**
 * Fits columns into `room` px. `keys` names the key columns; a column the schema fixes at the left
 * is pinned there like one, and those fixed at the right (the row actions) stay there. When the key
 * columns do not all leave the others MIN_SCROLL px, the last of them are not pinned.
 */
export function fitColumns<C extends Fittable>(
  columns: readonly C[],
  keys: ReadonlySet<string>,
  room: number,
): Fitted<C> {
  const width = sum(columns);
  if (width <= room) return { columns: [...columns], overflow: false, keysInView: true, width };
  const right = columns.filter((c) => c.fixed === 'right');
  const middle = columns.filter((c) => c.fixed !== 'right');
  const wanted = middle.filter((c) => keys.has(String(c.key)) || c.fixed === 'left');
  const budget = room - sum(right) - MIN_SCROLL;
  const pinned = new Set<C>();
  let used = 0;
  for (const c of wanted) {
    if (used + widthOf(c) > budget) break;
    pinned.add(c);
    used += widthOf(c);
  }
  // A pinned column keeps its side: the first half of the columns at the left, the second at the right.
  const leftSide = (c: C) => c.fixed === 'left' || middle.indexOf(c) < middle.length / 2;
  const pin = (c: C, side: 'left' | 'right') => ({ ...c, fixed: side });
  return {
    columns: [
      ...middle.filter((c) => pinned.has(c) && leftSide(c)).map((c) => pin(c, 'left')),
      ...middle.filter((c) => !pinned.has(c)).map((c) => (c.fixed ? { ...c, fixed: undefined } : c)),
      ...middle.filter((c) => pinned.has(c) && !leftSide(c)).map((c) => pin(c, 'right')),
      ...right,
    ],
    overflow: true,
    keysInView: wanted.every((c) => pinned.has(c) || !keys.has(String(c.key))),
    width,
  };
}

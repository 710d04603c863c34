import { textWidth } from './textWidth';

/**
 * A row's actions in the room they are given: all of them side by side when they fit, else the first
 * ones that fit beside a "更多" (more) menu holding the rest. Widths follow the row actions' stylesheet
 * (global.css, .screen-row-actions): link-styled text with a gap between buttons.
 */
export interface ActionText {
  fontSize: number;
  fontFamily?: string;
  /** The more menu's label in the user's language. */
  more: string;
}

/** The gap between two buttons (.screen-row-actions gap). */
export const ACTION_GAP = 8;

function width(label: string, text: ActionText): number {
  return textWidth(label, text.fontSize, text.fontFamily);
}

/** The more menu's button: its label and the down arrow after it. */
function moreWidth(text: ActionText): number {
  return width(text.more, text) + Math.ceil(text.fontSize * 0.85) + 4;
}

/** Width of buttons side by side. */
function rowWidth(labels: readonly string[], text: ActionText): number {
  return labels.reduce((sum, label, i) => sum + width(label, text) + (i > 0 ? ACTION_GAP : 0), 0);
}

/** How many of the labels stay inline in `room` px: all when they fit, else those that fit beside the more menu. */
export function inlineCount(labels: readonly string[], room: number, text: ActionText): number {
  if (rowWidth(labels, text) <= room) return labels.length;
  const left = room - moreWidth(text) - ACTION_GAP;
  let used = 0;
  let count = 0;
  for (const label of labels) {
    const next = used + width(label, text) + (count > 0 ? ACTION_GAP : 0);
    if (next > left) break;
    used = next;
    count++;
  }
  return count;
}

/** The width the actions take when the first `inline` of them are buttons and the rest a more menu. */
export function actionsWidth(labels: readonly string[], inline: number, text: ActionText): number {
  const shown = rowWidth(labels.slice(0, inline), text);
  if (inline >= labels.length) return shown;
  return shown + (inline > 0 ? ACTION_GAP : 0) + moreWidth(text);
}

import { describe, expect, it } from 'vitest';
import { ACTION_GAP, actionsWidth, inlineCount } from './actionFit';
import { estimateWidth } from './textWidth';

const text = { fontSize: 14, more: '更多' };
const labels = ['查看', '编辑', '确认接收', '打印交接单', '导出Excel', '删除'];
const all = labels.reduce((s, l) => s + estimateWidth(l, 14), 0) + ACTION_GAP * (labels.length - 1);

describe('a row’s actions in the room they have', () => {
  it('are all buttons when they fit, and take only their own width', () => {
    expect(inlineCount(labels, all, text)).toBe(labels.length);
    expect(actionsWidth(labels, labels.length, text)).toBe(all);
  });

  it('keep the first ones that fit beside a more menu when they do not', () => {
    const room = 200;
    const inline = inlineCount(labels, room, text);
    expect(inline).toBeGreaterThan(0);
    expect(inline).toBeLessThan(labels.length);
    expect(actionsWidth(labels, inline, text)).toBeLessThanOrEqual(room);
    // One more would not have fitted.
    expect(actionsWidth(labels, inline + 1, text)).toBeGreaterThan(room);
  });

  it('are all in the more menu when not even one fits beside it', () => {
    expect(inlineCount(labels, 40, text)).toBe(0);
  });
});

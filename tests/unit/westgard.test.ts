import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { QcRuleRecord } from '../../src/shared/generated/resources';
import { evaluate, ruleOf, zScore, type QcPoint, type QcRule } from '../../src/server/qc/westgard';

/**
 * Westgard multirules (domain notes, quality control) as a lab gets them: the QC rules shipped with the
 * demo data (schemas/demo/qc-rule.json), each judged alone and then together. Values are z-scores.
 */
const shipped = (
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../schemas/demo/qc-rule.json'), 'utf8')) as {
    records: QcRuleRecord[];
  }
).records;
const rules = new Map(shipped.map((r) => [r.code, ruleOf(r)!]));
const rule = (code: string): QcRule => {
  const found = rules.get(code);
  if (!found) throw new Error(`no shipped rule ${code}`);
  return found;
};

const point = (z: number, previous: number[] = [], sameRun: number[] = []): QcPoint => ({ z, previous, sameRun });
/** Whether one rule alone calls the point a violation. */
const breaks = (code: string, p: QcPoint) => evaluate([rule(code)], p).violations.includes(code);

describe('the shipped Westgard rules', () => {
  it('are all readable as rules', () => {
    expect([...rules.keys()]).toEqual(['1-2s', '1-3s', '2-2s', 'R-4s', '4-1s', '10x', '8x']);
    expect([...rules.values()].every(Boolean)).toBe(true);
  });

  it.each([
    [2, false], // exactly at the limit is within it
    [2.0001, true],
    [-2, false],
    [-2.0001, true],
    [0, false],
  ])('1-2s: one value at %s SD is a warning: %s', (z, broken) => {
    expect(breaks('1-2s', point(z))).toBe(broken);
    expect(evaluate([rule('1-2s')], point(z)).status).toBe(broken ? 'warning' : 'accept');
  });

  it.each([
    [3, false],
    [3.0001, true],
    [-3, false],
    [-3.0001, true],
  ])('1-3s: one value at %s SD rejects the run: %s', (z, broken) => {
    expect(breaks('1-3s', point(z))).toBe(broken);
    expect(evaluate([rule('1-3s')], point(z)).status).toBe(broken ? 'reject' : 'accept');
  });

  it('1-3s looks at the value judged only, not at earlier runs or the other levels', () => {
    expect(breaks('1-3s', point(0.5, [4, 4], [-4]))).toBe(false);
  });

  it.each<[string, QcPoint, boolean]>([
    ['this and the last run beyond +2 SD', point(2.1, [2.5]), true],
    ['this and the last run beyond -2 SD', point(-2.1, [-3.5]), true],
    ['the last run exactly at +2 SD', point(2.1, [2]), false],
    ['this run exactly at -2 SD', point(-2, [-2.5]), false],
    ['beyond 2 SD on opposite sides', point(2.1, [-2.1]), false],
    ['no earlier run', point(2.5), false],
    ['the run before last beyond, the last within: not consecutive', point(2.5, [1.9, 2.5]), false],
    ['older runs do not matter once the last two are beyond', point(2.5, [2.2, 0, -1]), true],
  ])('2-2s (two consecutive runs beyond the same 2 SD): %s → %s', (_, p, broken) => {
    expect(breaks('2-2s', p)).toBe(broken);
  });

  it.each<[string, QcPoint, boolean]>([
    ['one level above +2 SD, another below -2 SD', point(2.1, [], [-2.1]), true],
    ['the value judged below -2 SD, another level above +2 SD', point(-2.5, [], [2.5]), true],
    ['the other level exactly at -2 SD', point(2.1, [], [-2]), false],
    ['the value judged exactly at +2 SD', point(2, [], [-2.5]), false],
    // A range over 4 SD without one end beyond each 2 SD limit is not R-4s.
    ['a range of 4.9 SD with the value judged at +1.9 SD', point(1.9, [], [-3]), false],
    ['both levels beyond +2 SD', point(2.5, [], [2.5]), false],
    ['no other level in the run', point(2.5), false],
    // R-4s is a within-run rule: the earlier run at -2.5 is another run.
    ['the opposite value in an earlier run', point(2.5, [-2.5]), false],
    ['one of several other levels at the other end', point(2.2, [], [0.3, -2.2, 1]), true],
  ])('R-4s: %s → %s', (_, p, broken) => {
    expect(breaks('R-4s', p)).toBe(broken);
  });

  it.each<[string, QcPoint, boolean]>([
    ['four consecutive runs beyond +1 SD', point(1.5, [1.2, 1.1, 1.01]), true],
    ['four consecutive runs beyond -1 SD', point(-1.5, [-1.2, -1.1, -1.01]), true],
    ['the fourth exactly at +1 SD', point(1.5, [1.2, 1.1, 1]), false],
    ['only three runs so far', point(1.5, [1.2, 1.1]), false],
    ['one of the four on the other side', point(1.5, [1.2, -1.1, 1.3]), false],
    ['one of the four within 1 SD', point(1.5, [1.2, 0.9, 1.3]), false],
    ['a fifth run within does not matter', point(1.5, [1.2, 1.1, 1.3, 0]), true],
  ])('4-1s: %s → %s', (_, p, broken) => {
    expect(breaks('4-1s', p)).toBe(broken);
  });

  it.each<[string, QcPoint, boolean]>([
    ['ten runs above the mean', point(0.1, Array(9).fill(0.2)), true],
    ['ten runs below the mean', point(-0.1, Array(9).fill(-0.2)), true],
    ['nine runs so far', point(0.1, Array(8).fill(0.2)), false],
    ['one of the ten exactly on the mean', point(0.1, [...Array(8).fill(0.2), 0]), false],
    ['one of the ten on the other side', point(0.1, [...Array(4).fill(0.2), -0.1, ...Array(4).fill(0.2)]), false],
    ['an eleventh run on the other side does not matter', point(0.1, [...Array(9).fill(0.2), -3]), true],
  ])('10x: %s → %s', (_, p, broken) => {
    expect(breaks('10x', p)).toBe(broken);
  });

  it('8x counts eight runs where 10x counts ten', () => {
    const eight = point(0.3, Array(7).fill(0.3));
    expect(breaks('8x', eight)).toBe(true);
    expect(breaks('10x', eight)).toBe(false);
    expect(breaks('8x', point(0.3, Array(6).fill(0.3)))).toBe(false);
  });

  it('rules of consecutive values read the other levels of this run too (Westgard: across materials within the run)', () => {
    expect(breaks('2-2s', point(2.5, [], [2.5]))).toBe(true);
    expect(breaks('2-2s', point(2.5, [], [1.5]))).toBe(false);
    expect(breaks('4-1s', point(1.5, [], [1.5, 1.5, 1.5]))).toBe(true);
    expect(breaks('4-1s', point(1.5, [], [1.5, 1.5]))).toBe(false);
  });
});

describe('evaluating a rule combination', () => {
  // The shipped combination: every enabled rule (8x ships disabled), in the order the rules are listed.
  const all = shipped.filter((r) => r.enabled !== false).map((r) => ruleOf(r)!);

  it('accepts a run that breaks nothing', () => {
    expect(evaluate(all, point(1.2, [0.5, -0.3], [0.4]))).toEqual({ violations: [], status: 'accept' });
  });

  it('warns when only the warning rule is broken', () => {
    expect(evaluate(all, point(2.5, [0.5], [0.4]))).toEqual({ violations: ['1-2s'], status: 'warning' });
  });

  it('rejects when any reject rule is broken, naming every rule broken in the combination order', () => {
    expect(evaluate(all, point(3.2, [2.4], [-2.3]))).toEqual({
      violations: ['1-2s', '1-3s', '2-2s', 'R-4s'],
      status: 'reject',
    });
    expect(evaluate(all, point(1.5, [1.2, 1.1, 1.3]))).toEqual({ violations: ['4-1s'], status: 'reject' });
  });

  it('judges only by the rules of the combination', () => {
    expect(evaluate([rule('1-3s')], point(2.5))).toEqual({ violations: [], status: 'accept' });
    expect(evaluate([], point(5))).toEqual({ violations: [], status: 'accept' });
  });

  it('takes the severity from the rule, not from its kind', () => {
    const strict: QcRule = { ...rule('1-2s'), code: '1-2s strict', severity: 'reject' };
    expect(evaluate([strict], point(2.5)).status).toBe('reject');
  });
});

describe('rules and z-scores as the QC screens keep them', () => {
  const record: QcRuleRecord = {
    code: '1-2s',
    name: '1-2s',
    category: 1,
    ruleType: 'beyond',
    sdLimit: 2,
    count: 1,
    severity: 'warning',
  };

  it('reads a rule only when the fields evaluation needs are there', () => {
    expect(ruleOf(record)).toMatchObject({ code: '1-2s', ruleType: 'beyond', sdLimit: 2, count: 1 });
    expect(ruleOf({ ...record, code: null })).toBeUndefined();
    expect(ruleOf({ ...record, ruleType: null })).toBeUndefined();
    expect(ruleOf({ ...record, count: null })).toBeUndefined();
    expect(ruleOf({ ...record, severity: null })).toBeUndefined();
  });

  it('gives the z-score against the target, to four decimals', () => {
    expect(zScore(12, 10, 1)).toBe(2);
    expect(zScore(7, 10, 1.5)).toBe(-2);
    expect(zScore(10 + 2 / 3, 10, 1)).toBe(0.6667);
    expect(zScore(10, 10, 0.4)).toBe(0);
  });
});

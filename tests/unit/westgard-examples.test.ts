import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { QcRuleRecord } from '../../src/shared/generated/resources';
import { evaluate, meanAndSd, ruleOf, zScore, type QcRule } from '../../src/server/qc/westgard';

/**
 * Westgard's own worked setting (Westgard, "Basic QC Practices", the Levey-Jennings lesson and the
 * "Westgard Rules" multirule lesson): a cholesterol control with mean 200 mg/dL and SD 4 mg/dL, so the
 * 1 SD limits are 196 / 204, the 2 SD limits 192 / 208 and the 3 SD limits 188 / 212; a second control
 * level with mean 250 mg/dL and SD 5 mg/dL (2 SD limits 240 / 260). Each example is a series of runs
 * in measured values (the way a lab writes them down); the last run is judged, with each rule applied
 * as the lesson says: within the run across the levels, across runs within a level, and across runs
 * and levels.
 */
const shipped = (
  JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../schemas/demo/qc-rule.json'), 'utf8')) as {
    records: QcRuleRecord[];
  }
).records;
const westgard = shipped.filter((r) => r.enabled !== false).map((r) => ruleOf(r)!);
const only = (code: string): QcRule[] => westgard.filter((r) => r.code === code);

const LEVEL_1 = { mean: 200, sd: 4 };
const LEVEL_2 = { mean: 250, sd: 5 };

/**
 * The last run of a series of two-level runs ([level 1, level 2] values, oldest first; null when a
 * level was not run), judged level by level: the rules each level breaks.
 */
function judgeLastRun(runs: [number | null, number | null][], rules: QcRule[] = westgard) {
  const z = runs.map(([a, b]) => [
    a === null ? null : zScore(a, LEVEL_1.mean, LEVEL_1.sd),
    b === null ? null : zScore(b, LEVEL_2.mean, LEVEL_2.sd),
  ]);
  const last = z[z.length - 1]!;
  const earlier = z.slice(0, -1).reverse();
  return [0, 1].map((level) => {
    const value = last[level];
    if (value === null || value === undefined) return undefined;
    const previous = earlier.map((run) => run[level]).filter((v): v is number => v !== null);
    const sameRun = last.filter((v, i): v is number => i !== level && v !== null);
    const earlierRunsAllLevels = earlier.flat().filter((v): v is number => v !== null);
    return evaluate(rules, { z: value, previous, sameRun, earlierRunsAllLevels });
  });
}

describe('1-2s and 1-3s (one control value, mean 200, SD 4)', () => {
  it.each([
    [208, 'accept', []], // exactly at +2 SD: within the limit
    [208.4, 'warning', ['1-2s']], // +2.1 SD
    [192, 'accept', []],
    [191.6, 'warning', ['1-2s']],
    [212, 'warning', ['1-2s']], // exactly at +3 SD: still only the warning
    [212.4, 'reject', ['1-2s', '1-3s']], // +3.1 SD
    [188, 'warning', ['1-2s']],
    [187.6, 'reject', ['1-2s', '1-3s']],
  ])('a level-1 value of %s mg/dL: %s %j', (value, status, violations) => {
    const [level1] = judgeLastRun([[value, null]]);
    expect(level1).toEqual({ status, violations });
  });
});

describe('2-2s', () => {
  it('within the run: both levels beyond their +2 SD (209 and 261) reject it; one exactly at 260 does not', () => {
    expect(judgeLastRun([[209, 261]], only('2-2s'))).toEqual([
      { status: 'reject', violations: ['2-2s'] },
      { status: 'reject', violations: ['2-2s'] },
    ]);
    expect(judgeLastRun([[209, 260]], only('2-2s'))[0]).toEqual({ status: 'accept', violations: [] });
  });

  it('across runs: level 1 beyond −2 SD in two consecutive runs (191, 190); the earlier exactly at 192 is not', () => {
    expect(
      judgeLastRun(
        [
          [191, 250],
          [190, 251],
        ],
        only('2-2s'),
      )[0],
    ).toEqual({ status: 'reject', violations: ['2-2s'] });
    expect(
      judgeLastRun(
        [
          [192, 250],
          [190, 251],
        ],
        only('2-2s'),
      )[0],
    ).toEqual({ status: 'accept', violations: [] });
  });

  it('two values beyond 2 SD on opposite sides are not 2-2s (they are R-4s when in one run)', () => {
    expect(
      judgeLastRun(
        [
          [209, 250],
          [191, 250],
        ],
        only('2-2s'),
      )[0]?.status,
    ).toBe('accept');
  });
});

describe('R-4s (within the run only)', () => {
  it('level 1 above +2 SD (209) and level 2 below −2 SD (239) reject the run, each level naming it', () => {
    expect(judgeLastRun([[209, 239]])).toEqual([
      { status: 'reject', violations: ['1-2s', 'R-4s'] },
      { status: 'reject', violations: ['1-2s', 'R-4s'] },
    ]);
  });

  it('a range of 4.5 SD whose low end is exactly at −2 SD (240) is not R-4s', () => {
    expect(judgeLastRun([[210, 240]], only('R-4s'))[0]?.status).toBe('accept');
  });

  it('the opposite value in the previous run is another run: not R-4s', () => {
    expect(
      judgeLastRun(
        [
          [null, 239],
          [209, null],
        ],
        only('R-4s'),
      )[0]?.status,
    ).toBe('accept');
  });
});

describe('4-1s', () => {
  it('across runs within the level: four consecutive level-1 values above 204 reject the fourth', () => {
    const runs: [number, number][] = [
      [205, 250],
      [206, 249],
      [204.4, 251],
      [205, 250],
    ];
    expect(judgeLastRun(runs, only('4-1s'))[0]).toEqual({ status: 'reject', violations: ['4-1s'] });
    // One of them exactly at +1 SD (204): not beyond.
    const atLimit: [number, number][] = [
      [205, 250],
      [204, 249],
      [204.4, 251],
      [205, 250],
    ];
    expect(judgeLastRun(atLimit, only('4-1s'))[0]?.status).toBe('accept');
  });

  it('across runs and levels: two runs with both levels below −1 SD (195/244, 194/243) reject the second run', () => {
    expect(
      judgeLastRun(
        [
          [195, 244],
          [194, 243],
        ],
        only('4-1s'),
      ),
    ).toEqual([
      { status: 'reject', violations: ['4-1s'] },
      { status: 'reject', violations: ['4-1s'] },
    ]);
    // Level 2 exactly at −1 SD (245) in the earlier run breaks the series of four.
    expect(
      judgeLastRun(
        [
          [195, 245],
          [194, 243],
        ],
        only('4-1s'),
      )[0]?.status,
    ).toBe('accept');
  });
});

describe('10x', () => {
  it('ten consecutive level-1 values above the mean reject the tenth, nine do not', () => {
    const above = (n: number) => Array.from({ length: n }, (_, i): [number, null] => [201 + (i % 3), null]);
    expect(judgeLastRun(above(10), only('10x'))[0]).toEqual({ status: 'reject', violations: ['10x'] });
    expect(judgeLastRun(above(9), only('10x'))[0]?.status).toBe('accept');
  });

  it('across runs and levels: five runs with both levels below the mean reject the fifth', () => {
    const runs = Array.from({ length: 5 }, (): [number, number] => [199, 248]);
    expect(judgeLastRun(runs, only('10x'))[0]).toEqual({ status: 'reject', violations: ['10x'] });
    // A value exactly on the mean (250) is on neither side.
    expect(judgeLastRun([[199, 250], ...runs.slice(1)], only('10x'))[0]?.status).toBe('accept');
  });
});

describe('the whole multirule (1-2s warning; 1-3s, 2-2s, R-4s, 4-1s, 10x reject)', () => {
  it('a run within 2 SD of both means is accepted', () => {
    expect(
      judgeLastRun([
        [203, 247],
        [197, 256],
      ]),
    ).toEqual([
      { status: 'accept', violations: [] },
      { status: 'accept', violations: [] },
    ]);
  });

  it('a 1-2s warning alone does not reject the run: the other rules find nothing', () => {
    expect(
      judgeLastRun([
        [201, 249],
        [209, 251],
      ])[0],
    ).toEqual({ status: 'warning', violations: ['1-2s'] });
  });
});

describe('target from the establishing runs', () => {
  it('is the mean and the sample SD (n − 1) of the values, to four decimals', () => {
    // Twenty values alternating 196 and 204 around 200: SD = 4 · √(20/19).
    const values = Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? 196 : 204));
    expect(meanAndSd(values)).toEqual({ mean: 200, sd: 4.1039 });
    expect(meanAndSd([5.1, 5.2, 5.3])).toEqual({ mean: 5.2, sd: 0.1 });
  });
});

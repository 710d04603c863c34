import { describe, expect, it } from 'vitest';
import { interpret, type Breakpoint, type Guideline, type Method } from '../../src/server/microbiology/interpretation';

/**
 * S / I / SDD / R at the published breakpoints' edges, each guideline with its own comparisons
 * (CLSI M100-Ed34 2024 and EUCAST Breakpoint Tables v14.0).
 */
const read = (guideline: Guideline, method: Method, bp: Breakpoint, values: number[]) =>
  values.map((v) => `${v}:${interpret(guideline, method, v, bp)}`);

describe('CLSI M100 (R ≥ for MIC, R ≤ for zones)', () => {
  it('E. coli / ciprofloxacin MIC: S ≤ 0.25, I 0.5, R ≥ 1', () => {
    expect(read('CLSI', 'mic', { micS: 0.25, micR: 1 }, [0.125, 0.25, 0.5, 1, 2])).toEqual([
      '0.125:S',
      '0.25:S',
      '0.5:I',
      '1:R',
      '2:R',
    ]);
  });

  it('E. coli / ciprofloxacin disk (5 µg): S ≥ 26, I 22–25, R ≤ 21', () => {
    expect(read('CLSI', 'disk', { zoneS: 26, zoneR: 21 }, [27, 26, 25, 22, 21, 6])).toEqual([
      '27:S',
      '26:S',
      '25:I',
      '22:I',
      '21:R',
      '6:R',
    ]);
  });

  it('S. aureus / oxacillin MIC: S ≤ 2, R ≥ 4, no I in the doubling series', () => {
    expect(read('CLSI', 'mic', { micS: 2, micR: 4 }, [1, 2, 4, 8])).toEqual(['1:S', '2:S', '4:R', '8:R']);
  });

  it('S. aureus / cefoxitin disk (oxacillin surrogate): S ≥ 22, R ≤ 21', () => {
    expect(read('CLSI', 'disk', { zoneS: 22, zoneR: 21 }, [22, 21])).toEqual(['22:S', '21:R']);
  });

  it('Enterobacterales / cefepime: between S ≤ 2 and R ≥ 16 is SDD (MIC 4–8, zone 19–24)', () => {
    expect(read('CLSI', 'mic', { micS: 2, micR: 16, sdd: true }, [2, 4, 8, 16])).toEqual([
      '2:S',
      '4:SDD',
      '8:SDD',
      '16:R',
    ]);
    expect(read('CLSI', 'disk', { zoneS: 25, zoneR: 18, sdd: true }, [25, 24, 19, 18])).toEqual([
      '25:S',
      '24:SDD',
      '19:SDD',
      '18:R',
    ]);
  });
});

describe('EUCAST v14.0 (R > for MIC, R < for zones; I = susceptible, increased exposure)', () => {
  it('E. coli / ciprofloxacin MIC: S ≤ 0.25, R > 0.5', () => {
    expect(read('EUCAST', 'mic', { micS: 0.25, micR: 0.5 }, [0.25, 0.5, 1])).toEqual(['0.25:S', '0.5:I', '1:R']);
  });

  it('E. coli / ciprofloxacin disk (5 µg): S ≥ 25, R < 22', () => {
    expect(read('EUCAST', 'disk', { zoneS: 25, zoneR: 22 }, [25, 24, 22, 21])).toEqual([
      '25:S',
      '24:I',
      '22:I',
      '21:R',
    ]);
  });

  it('S. aureus / oxacillin MIC: S ≤ 2, R > 2 (the same value: nothing between)', () => {
    expect(read('EUCAST', 'mic', { micS: 2, micR: 2 }, [2, 4])).toEqual(['2:S', '4:R']);
  });

  it('S. aureus / cefoxitin screen disk: S ≥ 22, R < 22', () => {
    expect(read('EUCAST', 'disk', { zoneS: 22, zoneR: 22 }, [22, 21])).toEqual(['22:S', '21:R']);
  });

  it('an MIC equal to the printed R value is R under CLSI (≥) and I under EUCAST (>)', () => {
    expect(interpret('CLSI', 'mic', 1, { micS: 0.25, micR: 1 })).toBe('R');
    expect(interpret('EUCAST', 'mic', 1, { micS: 0.25, micR: 1 })).toBe('I');
  });

  it('never says SDD, whatever the row carries', () => {
    expect(interpret('EUCAST', 'mic', 4, { micS: 2, micR: 8, sdd: true })).toBe('I');
  });
});

describe('no guess', () => {
  it('answers nothing for a breakpoint without the values of the method', () => {
    expect(interpret('CLSI', 'disk', 20, { micS: 1, micR: 4 })).toBeUndefined();
    expect(interpret('CLSI', 'mic', Number.NaN, { micS: 1, micR: 4 })).toBeUndefined();
  });
});

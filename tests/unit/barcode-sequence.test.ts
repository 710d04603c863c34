import { describe, expect, it } from 'vitest';
import type { BarcodeRuleRecord } from '../../src/shared/generated/resources';
import {
  barcodeOf,
  formatDatePart,
  lastSequenceOf,
  numberingOf,
  periodOf,
  repeatsNumbers,
  type BarcodeRule,
  type DatePart,
  type ResetPeriod,
} from '../../src/server/barcodes/sequence';

/**
 * Barcode numbers of a custom barcode rule (spec 2.2, barcode management): prefix + date part + a
 * sequence of fixed width that restarts each period. Dates are local (the lab's wall clock).
 */
const day = (y: number, m: number, d: number) => new Date(y, m - 1, d, 10, 30);

describe('the date part of a barcode', () => {
  it.each<[DatePart, string]>([
    ['none', ''],
    ['yyyy', '2026'],
    ['yyMM', '2603'],
    ['yyyyMM', '202603'],
    ['yyMMdd', '260305'],
    ['yyyyMMdd', '20260305'],
  ])('%s on 5 March 2026 is "%s" (month and day two digits)', (part, text) => {
    expect(formatDatePart(part, day(2026, 3, 5))).toBe(text);
  });

  it('takes the local date, not the UTC one, just after midnight and just before it', () => {
    expect(formatDatePart('yyyyMMdd', new Date(2026, 11, 31, 23, 59, 59))).toBe('20261231');
    expect(formatDatePart('yyyyMMdd', new Date(2027, 0, 1, 0, 0, 1))).toBe('20270101');
  });
});

describe('the period a number belongs to', () => {
  it.each<[ResetPeriod, string]>([
    ['daily', '20260305'],
    ['monthly', '202603'],
    ['yearly', '2026'],
    ['never', 'all'],
  ])('%s: %s', (reset, period) => {
    expect(periodOf(reset, day(2026, 3, 5))).toBe(period);
  });

  it('changes exactly when the day, month or year does, so the sequence restarts then and only then', () => {
    const lastOfMonth = new Date(2026, 2, 31, 23, 59, 59);
    const firstOfNext = new Date(2026, 3, 1, 0, 0, 0);
    expect(periodOf('daily', lastOfMonth)).not.toBe(periodOf('daily', firstOfNext));
    expect(periodOf('monthly', lastOfMonth)).not.toBe(periodOf('monthly', firstOfNext));
    expect(periodOf('yearly', lastOfMonth)).toBe(periodOf('yearly', firstOfNext));
    expect(periodOf('daily', day(2026, 3, 5))).toBe(periodOf('daily', new Date(2026, 2, 5, 23, 59, 59)));
    expect(periodOf('monthly', day(2026, 3, 1))).toBe(periodOf('monthly', day(2026, 3, 31)));
    expect(periodOf('never', day(2020, 1, 1))).toBe(periodOf('never', day(2030, 12, 31)));
  });
});

describe('whether numbers of a rule can repeat', () => {
  // A rule repeats its numbers when the sequence restarts more often than its date part changes.
  it.each<[DatePart, ResetPeriod, boolean]>([
    ['none', 'never', false],
    ['none', 'yearly', true],
    ['none', 'daily', true],
    ['yyyy', 'yearly', false],
    ['yyyy', 'monthly', true],
    ['yyMM', 'monthly', false],
    ['yyMM', 'daily', true],
    ['yyyyMM', 'monthly', false],
    ['yyyyMM', 'daily', true],
    ['yyMMdd', 'daily', false],
    ['yyyyMMdd', 'daily', false],
    ['yyyyMMdd', 'never', false],
    ['yyMMdd', 'yearly', false],
  ])('date part %s, reset %s: repeats %s', (datePart, resetPeriod, repeats) => {
    expect(repeatsNumbers({ datePart, resetPeriod, sequenceWidth: 4 })).toBe(repeats);
  });
});

describe('a barcode number', () => {
  const rule: BarcodeRule = { prefix: 'BL', datePart: 'yyMMdd', sequenceWidth: 4, resetPeriod: 'daily' };

  it('is prefix, date part and the sequence padded to its width', () => {
    expect(barcodeOf(rule, day(2026, 3, 5), 1)).toBe('BL2603050001');
    expect(barcodeOf(rule, day(2026, 3, 5), 37)).toBe('BL2603050037');
    expect(barcodeOf(rule, day(2026, 3, 5), 9999)).toBe('BL2603059999');
  });

  it('has no prefix when the rule has none, and no date part for "none"', () => {
    expect(barcodeOf({ ...rule, prefix: null }, day(2026, 3, 5), 12)).toBe('2603050012');
    expect(barcodeOf({ ...rule, prefix: undefined, datePart: 'none' }, day(2026, 3, 5), 12)).toBe('0012');
  });

  it('numbers one after another without gaps, each as wide as the last', () => {
    const numbers = [1, 2, 3, 9, 10, 11].map((n) => barcodeOf({ ...rule, sequenceWidth: 2 }, day(2026, 3, 5), n));
    expect(numbers).toEqual(['BL26030501', 'BL26030502', 'BL26030503', 'BL26030509', 'BL26030510', 'BL26030511']);
  });

  it('ends its sequence at the largest number the width holds', () => {
    expect(lastSequenceOf({ ...rule, sequenceWidth: 1 })).toBe(9);
    expect(lastSequenceOf({ ...rule, sequenceWidth: 4 })).toBe(9999);
    expect(lastSequenceOf({ ...rule, sequenceWidth: 6 })).toBe(999_999);
    // The last number still fits the width; the next would not.
    expect(barcodeOf(rule, day(2026, 3, 5), lastSequenceOf(rule))).toHaveLength('BL260305'.length + 4);
    expect(barcodeOf(rule, day(2026, 3, 5), lastSequenceOf(rule) + 1)).toHaveLength('BL260305'.length + 5);
  });
});

describe('the numbering of a stored rule', () => {
  const record: BarcodeRuleRecord = {
    code: 'BL',
    name: '病理号',
    usage: 'pathology',
    prefix: 'BL',
    datePart: 'yyMMdd',
    sequenceWidth: 4,
    resetPeriod: 'daily',
    symbology: 'code128',
  };

  it('is read when date part, width and reset are there', () => {
    expect(numberingOf(record)).toEqual({ prefix: 'BL', datePart: 'yyMMdd', sequenceWidth: 4, resetPeriod: 'daily' });
  });

  it('is missing when one of them is', () => {
    expect(numberingOf({ ...record, datePart: null })).toBeUndefined();
    expect(numberingOf({ ...record, resetPeriod: null })).toBeUndefined();
    expect(numberingOf({ ...record, sequenceWidth: null })).toBeUndefined();
  });
});

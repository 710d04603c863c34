import { describe, expect, it } from 'vitest';
import {
  deltaExceeded,
  interpret,
  numericValue,
  rangeFor,
  rangeText,
  type ItemRules,
} from '../../src/shared/results/interpret';
import { verdictOf, type AuditRule } from '../../src/shared/results/autoVerify';

const SERUM = 11;
const URINE = 12;
const creatinine: ItemRules = {
  resultType: 'numeric',
  unit: 'μmol/L',
  decimals: 0,
  criticalHigh: 707,
  referenceRanges: [
    { sex: 'all', ageFrom: 0, ageTo: 28, ageUnit: 'day', lower: 27, upper: 77 },
    { sex: 'all', ageFrom: 1, ageTo: 18, ageUnit: 'year', lower: 20, upper: 80 },
    { sex: 'male', ageFrom: 18, ageTo: 150, ageUnit: 'year', lower: 57, upper: 111 },
    { sex: 'female', ageFrom: 18, ageTo: 150, ageUnit: 'year', lower: 41, upper: 81 },
    { sex: 'all', specimenType: URINE, lower: 5000, upper: 20000, text: '5000-20000' },
  ],
};

describe('reference range selection', () => {
  it('takes the band of the patient’s sex and age, the lower bound inclusive and the upper exclusive', () => {
    expect(rangeFor(creatinine.referenceRanges, { sex: 'male', age: 18, specimenType: SERUM })?.upper).toBe(111);
    expect(rangeFor(creatinine.referenceRanges, { sex: 'female', age: 18, specimenType: SERUM })?.upper).toBe(81);
    expect(rangeFor(creatinine.referenceRanges, { sex: 'male', age: 17, specimenType: SERUM })?.upper).toBe(80);
    expect(rangeFor(creatinine.referenceRanges, { sex: 'male', age: 1, specimenType: SERUM })?.upper).toBe(80);
  });

  it('reads a band in days for a newborn, and has none for an age no band covers', () => {
    expect(rangeFor(creatinine.referenceRanges, { sex: 'female', age: 0, specimenType: SERUM })?.upper).toBe(77);
    expect(
      rangeFor([{ sex: 'all', ageFrom: 18, ageTo: 60, lower: 1, upper: 2 }], { sex: 'male', age: 60 }),
    ).toBeUndefined();
    expect(rangeFor([{ sex: 'all', ageFrom: 18, ageTo: 60, lower: 1, upper: 2 }], { sex: 'male' })).toBeUndefined();
  });

  it('prefers the range of the specimen type and of the sex over one for any', () => {
    expect(rangeText(rangeFor(creatinine.referenceRanges, { sex: 'male', age: 40, specimenType: URINE }))).toBe(
      '5000-20000',
    );
    const ranges = [
      { sex: 'all' as const, lower: 1, upper: 9 },
      { sex: 'female' as const, lower: 2, upper: 8 },
    ];
    expect(rangeFor(ranges, { sex: 'female', age: 30 })?.upper).toBe(8);
    expect(rangeFor(ranges, { sex: 'male', age: 30 })?.upper).toBe(9);
  });
});

describe('interpretation', () => {
  const man = { sex: 'male', age: 61, specimenType: SERUM };
  it('flags H and L against the range and rounds to the item’s decimals', () => {
    expect(interpret('186.4', creatinine, man)).toEqual({
      result: '186',
      unit: 'μmol/L',
      referenceRange: '57-111',
      flag: 'H',
      critical: false,
    });
    expect(interpret('56.6', creatinine, man)).toMatchObject({ result: '57', flag: 'N' });
    expect(interpret('40', creatinine, man)).toMatchObject({ flag: 'L' });
  });

  it('flags a value at or past a critical limit as critical, before H', () => {
    expect(interpret('707', creatinine, man)).toMatchObject({ flag: 'HH', critical: true });
    expect(
      interpret('2.4', { decimals: 1, criticalLow: 2.5, referenceRanges: [{ lower: 3.9, upper: 6.1 }] }, man),
    ).toMatchObject({
      flag: 'LL',
      critical: true,
    });
  });

  it('refuses a numeric item’s text, forgives full-width digits, keeps a qualitative result as typed', () => {
    expect(interpret('阴性', creatinine, man)).toEqual({ error: 'notNumeric' });
    expect(numericValue('１２３．５')).toBe(123.5);
    expect(interpret(' 阴性 ', { resultType: 'qualitative', unit: '' }, man)).toMatchObject({
      result: '阴性',
      flag: '',
    });
  });
});

describe('a coded (qualitative) result', () => {
  const codes = [
    { value: '-', label: '阴性' },
    { value: '+', label: '阳性' },
    { value: '+-', label: '弱阳性' },
  ];
  const hbsag = { resultType: 'qualitative' as const, referenceRanges: [{ text: '阴性 <0.05' }] };
  const man = { sex: 'male', age: 40 };
  it('is entered by its code or its word and reported as the word, flagged A unless it is the normal one', () => {
    expect(interpret('+', hbsag, man, codes)).toMatchObject({
      result: '阳性',
      flag: 'A',
      referenceRange: '阴性 <0.05',
    });
    expect(interpret(' 阴性', hbsag, man, codes)).toMatchObject({ result: '阴性', flag: 'N' });
    expect(interpret('+-', hbsag, man, codes)).toMatchObject({ result: '弱阳性', flag: 'A' });
  });
  it('refuses a value that is none of the dictionary’s entries; without a normal word it flags nothing', () => {
    expect(interpret('++', hbsag, man, codes)).toEqual({ error: 'notCoded' });
    expect(interpret('+', { resultType: 'qualitative' }, man, codes)).toMatchObject({ result: '阳性', flag: '' });
  });
});

describe('delta check', () => {
  const now = new Date('2026-11-24T10:00:00Z');
  const daysAgo = (d: number) => new Date(now.getTime() - d * 86_400_000);
  it('flags a change larger than the rule allows against a recent previous result', () => {
    expect(deltaExceeded(150, { value: 100, at: daysAgo(3) }, { deltaPercent: 40, deltaDays: 7 }, now)).toEqual({
      percent: 50,
    });
    expect(deltaExceeded(130, { value: 100, at: daysAgo(3) }, { deltaPercent: 40, deltaDays: 7 }, now)).toBeUndefined();
  });
  it('ignores a previous result older than the rule’s days, and a patient without one', () => {
    expect(deltaExceeded(300, { value: 100, at: daysAgo(8) }, { deltaPercent: 40, deltaDays: 7 }, now)).toBeUndefined();
    expect(deltaExceeded(300, undefined, { deltaPercent: 40 }, now)).toBeUndefined();
  });
});

describe('auto-verification', () => {
  const now = new Date('2026-11-24T10:00:00Z');
  const rule = (r: Partial<AuditRule>): AuditRule => ({
    code: 'R',
    name: 'rule',
    ruleType: 'range',
    action: 'autoVerify',
    ...r,
  });
  const glucoseAuto = rule({ code: 'AV-GLU', name: '葡萄糖自动审核', lower: 3, upper: 15 });
  const deltaHold = rule({ code: 'DL', ruleType: 'delta', deltaPercent: 50, deltaDays: 30, action: 'hold' });
  it('approves by the system a result that passes every rule, naming the auto-verify rule', () => {
    const v = verdictOf([glucoseAuto, deltaHold], {
      value: 5.2,
      critical: false,
      previous: { value: 5, at: now },
      now,
    });
    expect(v).toMatchObject({ kind: 'auto', by: { code: 'AV-GLU' }, fired: [] });
  });
  it('leaves to a person a result outside the auto-verify range, and holds one a hold rule catches', () => {
    expect(verdictOf([glucoseAuto], { value: 16, critical: false, now }).kind).toBe('manual');
    const v = verdictOf([glucoseAuto, deltaHold], { value: 9, critical: false, previous: { value: 5, at: now }, now });
    expect(v).toMatchObject({ kind: 'hold', fired: [{ code: 'DL' }] });
  });
  it('never auto-verifies a critical result, a text result, or an item without an auto-verify rule', () => {
    expect(verdictOf([glucoseAuto], { value: 5, critical: true, now }).kind).toBe('manual');
    expect(verdictOf([glucoseAuto], { value: undefined, critical: false, now }).kind).toBe('manual');
    expect(verdictOf([], { value: 5, critical: false, now }).kind).toBe('manual');
  });
});

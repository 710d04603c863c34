import { describe, expect, it } from 'vitest';
import type { Predicate } from '../../src/shared/generated/screen';
import { matches } from '../../src/shared/screens/predicate';

/**
 * The JSON predicates of a screen (visibleWhen, enabledWhen, requiredWhen, selectableWhen, rule.when):
 * the browser shows, enables and requires fields by them and the server checks records by them, so each
 * operator must mean the same thing to both.
 */
const sample = {
  status: 'received',
  urgent: true,
  age: 70,
  collected: '2026-03-01',
  tags: ['HIV'],
  note: '',
  hospital: null,
};

describe('a field / operator / value predicate', () => {
  it.each<[Predicate, boolean]>([
    [{ field: 'status', op: 'eq', value: 'received' }, true],
    [{ field: 'status', op: 'eq', value: 'audited' }, false],
    [{ field: 'urgent', op: 'eq', value: true }, true],
    // Equal means the same value and type: the number 70 is not the text '70'.
    [{ field: 'age', op: 'eq', value: '70' }, false],
    [{ field: 'status', op: 'ne', value: 'audited' }, true],
    [{ field: 'status', op: 'ne', value: 'received' }, false],
  ])('eq / ne: %j is %s', (predicate, expected) => {
    expect(matches(predicate, sample)).toBe(expected);
  });

  it.each<[Predicate, boolean]>([
    [{ field: 'age', op: 'gt', value: 69 }, true],
    [{ field: 'age', op: 'gt', value: 70 }, false],
    [{ field: 'age', op: 'gte', value: 70 }, true],
    [{ field: 'age', op: 'gte', value: 71 }, false],
    [{ field: 'age', op: 'lt', value: 71 }, true],
    [{ field: 'age', op: 'lt', value: 70 }, false],
    [{ field: 'age', op: 'lte', value: 70 }, true],
    [{ field: 'age', op: 'lte', value: 69 }, false],
    // Numbers compare as numbers, not as text ("70" < "8" as text).
    [{ field: 'age', op: 'gt', value: 8 }, true],
    // Dates as the form writes them (YYYY-MM-DD) compare in calendar order.
    [{ field: 'collected', op: 'gt', value: '2026-02-28' }, true],
    [{ field: 'collected', op: 'lt', value: '2026-02-28' }, false],
    [{ field: 'collected', op: 'lte', value: '2026-03-01' }, true],
  ])('gt / gte / lt / lte: %j is %s', (predicate, expected) => {
    expect(matches(predicate, sample)).toBe(expected);
  });

  it.each<[Predicate, boolean]>([
    [{ field: 'status', op: 'in', value: ['received', 'audited'] }, true],
    [{ field: 'status', op: 'in', value: ['audited', 'reported'] }, false],
    [{ field: 'status', op: 'notIn', value: ['audited', 'reported'] }, true],
    [{ field: 'status', op: 'notIn', value: ['received'] }, false],
    // A list that is not a list matches nothing either way, rather than matching by accident.
    [{ field: 'status', op: 'in', value: 'received' }, false],
    [{ field: 'status', op: 'notIn', value: 'audited' }, false],
  ])('in / notIn: %j is %s', (predicate, expected) => {
    expect(matches(predicate, sample)).toBe(expected);
  });

  it('counts no value, null, empty text and an empty list as empty, and anything else (false, 0) as a value', () => {
    const record = { a: undefined, b: null, c: '', d: [], e: false, f: 0, g: 'x', h: ['x'] };
    const empty = (field: string) => matches({ field, op: 'empty' }, record);
    const notEmpty = (field: string) => matches({ field, op: 'notEmpty' }, record);
    expect(['a', 'b', 'c', 'd', 'missing'].map(empty)).toEqual([true, true, true, true, true]);
    expect(['e', 'f', 'g', 'h'].map(empty)).toEqual([false, false, false, false]);
    expect(['a', 'b', 'c', 'd', 'missing'].map(notEmpty)).toEqual([false, false, false, false, false]);
    expect(['e', 'f', 'g', 'h'].map(notEmpty)).toEqual([true, true, true, true]);
  });
});

describe('a field the record does not have', () => {
  it.each<[Predicate, boolean]>([
    [{ field: 'missing', op: 'eq', value: 'x' }, false],
    [{ field: 'missing', op: 'ne', value: 'x' }, true],
    // An unfilled number or date is neither above nor below anything: a range rule waits for a value.
    [{ field: 'missing', op: 'gt', value: 0 }, false],
    [{ field: 'missing', op: 'gte', value: 0 }, false],
    [{ field: 'missing', op: 'lt', value: 0 }, false],
    [{ field: 'missing', op: 'lte', value: 0 }, false],
    [{ field: 'hospital', op: 'lt', value: 'z' }, false],
    [{ field: 'note', op: 'lte', value: 'z' }, false],
    [{ field: 'missing', op: 'in', value: ['x'] }, false],
    [{ field: 'missing', op: 'notIn', value: ['x'] }, true],
    [{ field: 'missing', op: 'empty' }, true],
    [{ field: 'missing', op: 'notEmpty' }, false],
  ])('%j is %s', (predicate, expected) => {
    expect(matches(predicate, sample)).toBe(expected);
    expect(matches(predicate, {})).toBe(expected);
  });
});

describe('all / any / not', () => {
  const urgent: Predicate = { field: 'urgent', op: 'eq', value: true };
  const elderly: Predicate = { field: 'age', op: 'gte', value: 65 };
  const audited: Predicate = { field: 'status', op: 'eq', value: 'audited' };

  it('all needs every part, any needs one, not turns its part round', () => {
    expect(matches({ all: [urgent, elderly] }, sample)).toBe(true);
    expect(matches({ all: [urgent, audited] }, sample)).toBe(false);
    expect(matches({ any: [audited, elderly] }, sample)).toBe(true);
    expect(matches({ any: [audited, { field: 'age', op: 'lt', value: 18 }] }, sample)).toBe(false);
    expect(matches({ not: audited }, sample)).toBe(true);
    expect(matches({ not: urgent }, sample)).toBe(false);
  });

  it('nests: all inside any inside all, and so on', () => {
    // Urgent and (audited, or elderly and not tagged HIV).
    const hivFree: Predicate = { not: { field: 'tags', op: 'notEmpty' } };
    const rule: Predicate = { all: [urgent, { any: [audited, { all: [elderly, hivFree] }] }] };
    expect(matches(rule, sample)).toBe(false);
    expect(matches(rule, { ...sample, tags: [] })).toBe(true);
    expect(matches(rule, { ...sample, tags: [], age: 40 })).toBe(false);
    expect(matches(rule, { ...sample, age: 40, status: 'audited' })).toBe(true);
    expect(matches(rule, { ...sample, urgent: false, status: 'audited' })).toBe(false);
  });

  it('reads nested parts on missing fields the same way as a single part', () => {
    expect(
      matches(
        {
          any: [
            { field: 'missing', op: 'eq', value: 1 },
            { field: 'other', op: 'empty' },
          ],
        },
        {},
      ),
    ).toBe(true);
    expect(
      matches(
        {
          all: [
            { field: 'missing', op: 'ne', value: 1 },
            { field: 'other', op: 'notEmpty' },
          ],
        },
        {},
      ),
    ).toBe(false);
  });

  it('takes an empty all as met and an empty any as not met, like every and some', () => {
    expect(matches({ all: [] }, sample)).toBe(true);
    expect(matches({ any: [] }, sample)).toBe(false);
  });

  it('holds when there is no predicate: a field without visibleWhen is always shown', () => {
    expect(matches(undefined, sample)).toBe(true);
    expect(matches(undefined, {})).toBe(true);
  });
});

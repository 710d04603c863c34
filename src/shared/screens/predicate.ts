import type { Predicate } from '../generated/screen.js';

export type RecordValues = Record<string, unknown>;

const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

function compare(a: unknown, b: unknown): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a ?? '').localeCompare(String(b ?? ''));
}

/**
 * Evaluates a schema predicate (visibleWhen, enabledWhen, requiredWhen, selectableWhen) against a
 * record. Predicates are data, interpreted here; nothing in a schema is ever run as code.
 */
export function matches(predicate: Predicate | undefined, record: RecordValues): boolean {
  if (!predicate) return true;
  if ('all' in predicate) return predicate.all.every((p) => matches(p, record));
  if ('any' in predicate) return predicate.any.some((p) => matches(p, record));
  if ('not' in predicate) return !matches(predicate.not, record);
  const actual = record[predicate.field];
  const expected = predicate.value;
  switch (predicate.op) {
    case 'eq':
      return actual === expected;
    case 'ne':
      return actual !== expected;
    case 'gt':
      return !isEmpty(actual) && compare(actual, expected) > 0;
    case 'gte':
      return !isEmpty(actual) && compare(actual, expected) >= 0;
    case 'lt':
      return !isEmpty(actual) && compare(actual, expected) < 0;
    case 'lte':
      return !isEmpty(actual) && compare(actual, expected) <= 0;
    case 'in':
      return Array.isArray(expected) && expected.includes(actual);
    case 'notIn':
      return Array.isArray(expected) && !expected.includes(actual);
    case 'empty':
      return isEmpty(actual);
    case 'notEmpty':
      return !isEmpty(actual);
  }
}

export { isEmpty };

import type { BarcodeRuleRecord } from '../../shared/generated/resources.js';

/**
 * Barcode numbers of a custom barcode rule (domain notes): prefix + date part + a sequence of fixed
 * width, restarted each day, month or year, or never. Pure functions; the routes issue numbers in a
 * transaction so none is skipped or given twice.
 */
export type DatePart = NonNullable<BarcodeRuleRecord['datePart']>;
export type ResetPeriod = NonNullable<BarcodeRuleRecord['resetPeriod']>;

/** What numbering needs of a rule: the record's fields, present (the schema requires them). */
export interface BarcodeRule {
  prefix?: string | null;
  datePart: DatePart;
  sequenceWidth: number;
  resetPeriod: ResetPeriod;
}

/** The numbering of a stored rule; undefined when a field it needs is missing. */
export function numberingOf(record: BarcodeRuleRecord): BarcodeRule | undefined {
  const { prefix, datePart, sequenceWidth, resetPeriod } = record;
  if (!datePart || !resetPeriod || typeof sequenceWidth !== 'number') return undefined;
  return { prefix, datePart, sequenceWidth, resetPeriod };
}

const pad = (n: number, width: number) => String(n).padStart(width, '0');

function parts(date: Date) {
  return { yyyy: String(date.getFullYear()), MM: pad(date.getMonth() + 1, 2), dd: pad(date.getDate(), 2) };
}

export function formatDatePart(part: DatePart, date: Date): string {
  const { yyyy, MM, dd } = parts(date);
  const yy = yyyy.slice(2);
  const formats: Record<DatePart, string> = {
    none: '',
    yyyy,
    yyMM: yy + MM,
    yyyyMM: yyyy + MM,
    yyMMdd: yy + MM + dd,
    yyyyMMdd: yyyy + MM + dd,
  };
  return formats[part];
}

/** The period a number belongs to: the sequence starts again at 1 when it changes. */
export function periodOf(reset: ResetPeriod, date: Date): string {
  const { yyyy, MM, dd } = parts(date);
  const periods: Record<ResetPeriod, string> = {
    daily: yyyy + MM + dd,
    monthly: yyyy + MM,
    yearly: yyyy,
    never: 'all',
  };
  return periods[reset];
}

/**
 * Whether numbers of the rule can repeat: a sequence that restarts each day must carry the day in its
 * date part (and so on for months and years), or yesterday's numbers come back today.
 */
export function repeatsNumbers(rule: BarcodeRule): boolean {
  const carries: Record<DatePart, ResetPeriod[]> = {
    none: ['never'],
    yyyy: ['never', 'yearly'],
    yyMM: ['never', 'yearly', 'monthly'],
    yyyyMM: ['never', 'yearly', 'monthly'],
    yyMMdd: ['never', 'yearly', 'monthly', 'daily'],
    yyyyMMdd: ['never', 'yearly', 'monthly', 'daily'],
  };
  return !carries[rule.datePart].includes(rule.resetPeriod);
}

export function barcodeOf(rule: BarcodeRule, date: Date, sequence: number): string {
  return `${rule.prefix ?? ''}${formatDatePart(rule.datePart, date)}${pad(sequence, rule.sequenceWidth)}`;
}

/** The largest sequence the width can hold (width 4: 9999). */
export const lastSequenceOf = (rule: BarcodeRule) => 10 ** rule.sequenceWidth - 1;

import type { Locale } from '../../shared/i18n/messages.js';
import { STAT_MESSAGES, say } from './messages.js';

/** A half-open span of instants [from, to); either end may be open. */
export interface Period {
  from?: Date;
  to?: Date;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/** A local date or date-time as the screens send it; a date alone is its day's start (or, as an end, the next day's). */
function instant(value: string, end: boolean, locale: Locale): Date {
  const m = DATE.exec(value.trim());
  if (!m) say(locale, STAT_MESSAGES.badDate, { value: value.slice(0, 40) });
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
  const at = new Date(y!, mo! - 1, d!, h || 0, mi || 0, s || 0);
  if (Number.isNaN(at.getTime()) || at.getMonth() !== mo! - 1) say(locale, STAT_MESSAGES.badDate, { value });
  if (end && m[4] === undefined) at.setDate(at.getDate() + 1);
  else if (end) at.setSeconds(at.getSeconds() + 1);
  return at;
}

/** The period a statistic's {key}From / {key}To filters give, in the server's local time (the lab's). */
export function periodOf(query: Record<string, string | undefined>, key: string, locale: Locale): Period {
  const from = query[`${key}From`];
  const to = query[`${key}To`];
  return { from: from ? instant(from, false, locale) : undefined, to: to ? instant(to, true, locale) : undefined };
}

export const INTERVALS = ['day', 'week', 'month'] as const;
export type Interval = (typeof INTERVALS)[number];

const LABEL_FORMAT: Record<Interval, string> = { day: 'YYYY-MM-DD', week: 'YYYY-MM-DD', month: 'YYYY-MM' };

/**
 * SQL naming the lab's day, week (its Monday) or month of a time column: the instant shifted to the
 * lab's wall clock by a fixed offset (the server's time zone; no daylight saving in China), so the
 * answer does not depend on the database session's time zone.
 */
export function periodSql(column: string, interval: Interval, offsetMinutes: number): string {
  const local = `(${column} at time zone 'UTC') + interval '${Math.trunc(offsetMinutes)} minutes'`;
  return `to_char(date_trunc('${interval}', ${local}), '${LABEL_FORMAT[interval]}')`;
}

/** Minutes the lab's wall clock is ahead of UTC at that instant. */
export const offsetAt = (at: Date) => -at.getTimezoneOffset();

const monthStart = (at: Date, add = 0) => new Date(at.getFullYear(), at.getMonth() + add, 1);

/** The whole months of the lab's calendar within a period (an open end stays open), if it has any. */
export function wholeMonths(period: Period): Period | undefined {
  const from = period.from && monthStart(period.from, period.from > monthStart(period.from) ? 1 : 0);
  const to = period.to && monthStart(period.to);
  return from && to && from >= to ? undefined : { from, to };
}

const dayStart = (at: Date, add = 0) => new Date(at.getFullYear(), at.getMonth(), at.getDate() + add);

/** The whole days of the lab's calendar within a period (an open end stays open), if it has any. */
export function wholeDays(period: Period): Period | undefined {
  const from = period.from && dayStart(period.from, period.from > dayStart(period.from) ? 1 : 0);
  const to = period.to && dayStart(period.to);
  return from && to && from >= to ? undefined : { from, to };
}

/** What a period holds beyond its whole months (or days): the days before the first and after the last. */
export function edgesOf(period: Period, whole: Period): Period[] {
  const edges: Period[] = [];
  if (period.from && whole.from && period.from < whole.from) edges.push({ from: period.from, to: whole.from });
  if (period.to && whole.to && whole.to < period.to) edges.push({ from: whole.to, to: period.to });
  return edges;
}

/** A day of the lab's calendar as SQL reads a date (YYYY-MM-DD). */
export const localDate = (at: Date) =>
  `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;

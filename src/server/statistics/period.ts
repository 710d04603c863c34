import type { Locale } from '../../shared/i18n/messages.js';
import { localDateTime, zonedInstant, zoneOffsetMinutes } from '../../shared/time.js';
import { STAT_MESSAGES, say } from './messages.js';

/** A half-open span of instants [from, to); either end may be open. */
export interface Period {
  from?: Date;
  to?: Date;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/**
 * A local date or date-time of the lab (in its zone) as the screens send it; a date alone is its
 * day's start (or, as an end, the next day's).
 */
function instant(value: string, end: boolean, locale: Locale, timeZone: string): Date {
  const m = DATE.exec(value.trim());
  if (!m) say(locale, STAT_MESSAGES.badDate, { value: value.slice(0, 40) });
  const [, y, mo, d, h, mi, s] = m.map(Number) as number[];
  const day = new Date(Date.UTC(y!, mo! - 1, d!, h || 0, mi || 0, s || 0));
  if (Number.isNaN(day.getTime()) || day.getUTCMonth() !== mo! - 1) say(locale, STAT_MESSAGES.badDate, { value });
  const dateOnly = m[4] === undefined;
  return zonedInstant(
    timeZone,
    y!,
    mo!,
    d! + (end && dateOnly ? 1 : 0),
    h || 0,
    mi || 0,
    (s || 0) + (end && !dateOnly ? 1 : 0),
  );
}

/** The period a statistic's {key}From / {key}To filters give, read as the lab's local time in its zone. */
export function periodOf(
  query: Record<string, string | undefined>,
  key: string,
  locale: Locale,
  timeZone: string,
): Period {
  const from = query[`${key}From`];
  const to = query[`${key}To`];
  return {
    from: from ? instant(from, false, locale, timeZone) : undefined,
    to: to ? instant(to, true, locale, timeZone) : undefined,
  };
}

export const INTERVALS = ['day', 'week', 'month'] as const;
export type Interval = (typeof INTERVALS)[number];

const LABEL_FORMAT: Record<Interval, string> = { day: 'YYYY-MM-DD', week: 'YYYY-MM-DD', month: 'YYYY-MM' };

/**
 * SQL naming the lab's day, week (its Monday) or month of a time column: the instant shifted to the
 * lab's wall clock by a fixed offset (its zone's now; no daylight saving in China), so the
 * answer does not depend on the database session's time zone.
 */
export function periodSql(column: string, interval: Interval, offsetMinutes: number): string {
  return periodLabel(periodStartSql(column, interval, offsetMinutes), interval);
}

/** The first day of the lab's period of a time column, as a date: grouped on before it is labelled. */
export function periodStartSql(column: string, interval: Interval, offsetMinutes: number): string {
  const local = `(${column} at time zone 'UTC') + interval '${Math.trunc(offsetMinutes)} minutes'`;
  return `date_trunc('${interval}', ${local})::date`;
}

/** The label of a period from its first day (periodStartSql): 2025-06 for a month, the day else. */
export const periodLabel = (start: string, interval: Interval) => `to_char(${start}, '${LABEL_FORMAT[interval]}')`;

/** Minutes the lab's wall clock (its zone; the process's when none is given) is ahead of UTC at that instant. */
export const offsetAt = (at: Date, timeZone?: string) =>
  timeZone ? zoneOffsetMinutes(at, timeZone) : -at.getTimezoneOffset();

/** The start of the lab's month of an instant, `add` months on. */
function monthStart(at: Date, timeZone: string, add = 0): Date {
  const [y, month] = localDateTime(at, timeZone).split('-').map(Number) as [number, number];
  return zonedInstant(timeZone, y, month + add);
}

/** The whole months of the lab's calendar within a period (an open end stays open), if it has any. */
export function wholeMonths(period: Period, timeZone: string): Period | undefined {
  const start = period.from && monthStart(period.from, timeZone);
  const from = period.from && start && (period.from > start ? monthStart(period.from, timeZone, 1) : start);
  const to = period.to && monthStart(period.to, timeZone);
  return from && to && from >= to ? undefined : { from, to };
}

/** The start of the lab's day of an instant, `add` days on. */
function dayStart(at: Date, timeZone: string, add = 0): Date {
  const [y, month, d] = localDateTime(at, timeZone).slice(0, 10).split('-').map(Number) as [number, number, number];
  return zonedInstant(timeZone, y, month, d + add);
}

/** The whole days of the lab's calendar within a period (an open end stays open), if it has any. */
export function wholeDays(period: Period, timeZone: string): Period | undefined {
  const from = period.from && dayStart(period.from, timeZone, period.from > dayStart(period.from, timeZone) ? 1 : 0);
  const to = period.to && dayStart(period.to, timeZone);
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
export const localDate = (at: Date, timeZone: string) => localDateTime(at, timeZone).slice(0, 10);

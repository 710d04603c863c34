import { describe, expect, it } from 'vitest';
import { localDate, offsetAt, periodOf, wholeMonths } from '../../src/server/statistics/period';
import { zonedInstant } from '../../src/shared/time';

/**
 * Issue 20: a statistic's period and its month boundaries are the lab's local dates in its own zone,
 * not the server process's: a lab in Los Angeles asking for March gets March in Los Angeles.
 */
describe("a statistic's period in the lab's zone", () => {
  const LA = 'America/Los_Angeles';

  it('reads dates as the start of the lab’s day, an end date as the next day’s start', () => {
    const period = periodOf({ atFrom: '2026-03-01', atTo: '2026-03-31' }, 'at', 'en-US', LA);
    // 1 March 00:00 in Los Angeles (PST, UTC-8) and 1 April 00:00 there (PDT since 8 March, UTC-7).
    expect(period.from?.toISOString()).toBe('2026-03-01T08:00:00.000Z');
    expect(period.to?.toISOString()).toBe('2026-04-01T07:00:00.000Z');
    const shanghai = periodOf({ atFrom: '2026-03-01 08:30' }, 'at', 'en-US', 'Asia/Shanghai');
    expect(shanghai.from?.toISOString()).toBe('2026-03-01T00:30:00.000Z');
  });

  it('finds the whole months of the lab’s calendar and names their days in its zone', () => {
    const period = periodOf({ atFrom: '2026-02-15', atTo: '2026-04-30' }, 'at', 'en-US', LA);
    const months = wholeMonths(period, LA)!;
    expect(months.from?.toISOString()).toBe('2026-03-01T08:00:00.000Z');
    expect(months.to?.toISOString()).toBe('2026-05-01T07:00:00.000Z');
    expect(localDate(months.from!, LA)).toBe('2026-03-01');
    expect(localDate(months.to!, LA)).toBe('2026-05-01');
    // Within one month there is no whole one.
    expect(wholeMonths(periodOf({ atFrom: '2026-03-02', atTo: '2026-03-20' }, 'at', 'en-US', LA), LA)).toBeUndefined();
  });

  it("takes the zone's offset at the instant, daylight saving included", () => {
    expect(offsetAt(new Date('2026-01-15T12:00:00Z'), LA)).toBe(-480);
    expect(offsetAt(new Date('2026-07-15T12:00:00Z'), LA)).toBe(-420);
    expect(offsetAt(new Date('2026-07-15T12:00:00Z'), 'Asia/Shanghai')).toBe(480);
    // A local time beside the spring change takes the offset in force at it.
    expect(zonedInstant(LA, 2026, 3, 8, 3, 30).toISOString()).toBe('2026-03-08T10:30:00.000Z');
    expect(zonedInstant(LA, 2026, 3, 8, 1, 30).toISOString()).toBe('2026-03-08T09:30:00.000Z');
  });

  it('refuses a date that does not exist', () => {
    expect(() => periodOf({ atFrom: '2026-02-30' }, 'at', 'en-US', LA)).toThrow();
  });
});

// @vitest-environment node
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/server/kernel/db/database';
import { migrate } from '../../src/server/kernel/db/migrate';
import { openPglite } from '../../src/server/kernel/db/pglite';
import { percentilesOf, turnaround, type Dimension, type FactQuery } from '../../src/server/statistics/facts';
import { offsetAt } from '../../src/server/statistics/period';
import { processTimeZone } from '../../src/shared/time';

/**
 * Turnaround figures are read off counts of whole minutes (whole lab months kept by migration 16's
 * triggers, the rest of a period counted on the spot), never by sorting every test. They must be the
 * figures percentile_cont gives over the tests themselves, whatever the mix of counts, ties, groups,
 * periods and later edits of the tests.
 */
let db: Database;
let dataDir: string;
beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'lims-tat-'));
  db = await openPglite(dataDir);
  await migrate(db);
}, 120_000);
afterAll(async () => {
  await db?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A deterministic pseudo-random sequence (the same figures every run). */
function randomOf(seed: number): () => number {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

/** Figures rounded where the two ways interpolate in different arithmetic (3.1999999999999993 and 3.2). */
const rounded = (rows: Record<string, unknown>[]) =>
  rows.map((row) =>
    Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'number' ? Number(v.toFixed(9)) : v])),
  );

describe('percentiles from a histogram of minutes', () => {
  type Test = { key: number; minutes: number; target: number };
  const values = (tests: Test[]) => tests.map((t) => `(${t.key}, ${t.minutes}, ${t.target}::numeric)`).join(', ');

  it('equal percentile_cont for one test, ties, and a hundred random groups', async () => {
    const random = randomOf(20261125);
    const cases: Test[][] = [
      [{ key: 1, minutes: 42, target: 60 }],
      [120, 180, 300, 180, 300, 120].map((minutes) => ({ key: 1, minutes, target: 240 })),
    ];
    for (let c = 0; c < 100; c++) {
      // Few distinct minutes in some cases (many ties), a wide spread in others.
      const spread = random() < 0.5 ? 5 : 3000;
      cases.push(
        Array.from({ length: 1 + Math.floor(random() * 60) }, () => ({
          key: 1 + Math.floor(random() * 4),
          minutes: Math.floor(random() * spread),
          target: random() < 0.8 ? 120 : 60,
        })),
      );
    }
    for (const tests of cases) {
      const table = `(values ${values(tests)}) t(key, minutes, target)`;
      const histogram = await db.query<Record<string, unknown>>(
        `${percentilesOf(`select key, minutes, target, 1 as n from ${table}`)} order by key`,
      );
      const sorted = await db.query<Record<string, unknown>>(
        `select key, count(*)::int as count,
                percentile_cont(0.5) within group (order by minutes) as "medianMinutes",
                percentile_cont(0.9) within group (order by minutes) as "p90Minutes",
                max(minutes)::float8 as "maxMinutes", count(*) filter (where minutes <= target)::int as "withinTarget",
                case when min(target) = max(target) then min(target)::float8 end as "targetMinutes"
           from ${table} group by key order by key`,
      );
      expect(rounded(histogram)).toEqual(rounded(sorted));
    }
  });

  it('counts a minute begun as a whole one: 60 min 1 s is over a 60-minute target, 60 min 0 s is not', async () => {
    const minutes = async (seconds: number) =>
      (
        await db.query<{ m: number }>(
          `select stat_minutes(t, t + make_interval(secs => $1)) as m from (select now() as t) x`,
          [seconds],
        )
      )[0]!.m;
    expect([await minutes(3600), await minutes(3601), await minutes(59), await minutes(0)]).toEqual([60, 61, 1, 0]);
    // To the microsecond, over a test of minutes and one that took over a year.
    const year = 400 * 86400;
    expect([await minutes(3600.000001), await minutes(year), await minutes(year + 0.000001)]).toEqual([
      61,
      year / 60,
      year / 60 + 1,
    ]);
  });
});

describe('turnaround counts per lab month', () => {
  const ORG = 7;
  const ITEMS = [11, 12, 13];
  const HOSPITALS = [21, 22];
  const start = Date.UTC(2025, 0, 1);
  const DAY = 86_400_000;
  const random = randomOf(7);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  const iso = (ms: number) => new Date(ms).toISOString();

  /** Tests over a year: each specimen received at a random time, collected before it, some reported. */
  async function writeTests(from: number, count: number) {
    const rows: string[] = [];
    for (let s = from; s < from + count; s++) {
      const received = start + random() * 365 * DAY;
      const collected = received - (1 + random() * 240) * 60_000;
      const reported = random() < 0.9 ? `'${iso(received + random() * 3000 * 60_000)}'` : 'null';
      for (const item of ITEMS.filter(() => random() < 0.7))
        rows.push(
          `(${ORG}, ${s}, ${item}, ${item % 2}, ${pick(HOSPITALS)}, '${iso(collected)}', '${iso(received)}', ${reported}, false)`,
        );
    }
    if (rows.length > 0)
      await db.query(
        `insert into stat_specimen_item (org_id, specimen_id, item_id, group_id, hospital_id, collected_at, received_at,
                                         reported_at, cancelled) values ${rows.join(', ')}`,
      );
  }

  /** What the counts must hold: the tests counted afresh, in the lab's months of the given clock. */
  const counted = (offset: number) =>
    db.query<Record<string, unknown>>(
      `select org_id, measure,
              to_char(date_trunc('month', (end_at at time zone 'UTC') + make_interval(mins => $1)), 'YYYY-MM-DD') as month,
              item_id, group_id, hospital_id, stat_minutes(start_at, end_at) as minutes, count(*)::int as n
         from stat_specimen_item
         cross join lateral (values ('preAnalytical', collected_at, received_at), ('inLab', received_at, reported_at))
                            m(measure, start_at, end_at)
        where not cancelled and start_at is not null and end_at is not null
        group by 1, 2, 3, 4, 5, 6, 7 order by 1, 2, 3, 4, 5, 6, 7`,
      [offset],
    );
  const kept = () =>
    db.query<Record<string, unknown>>(
      `select org_id, measure, to_char(month, 'YYYY-MM-DD') as month, item_id, group_id, hospital_id, minutes, n
         from stat_turnaround_month where n <> 0 order by 1, 2, 3, 4, 5, 6, 7`,
    );

  /** The sorted histograms of lab days and weeks (migration 22) must hold the same tests, per minute. */
  const countedSpans = (offset: number) =>
    db.query<Record<string, unknown>>(
      `select f.org_id, measure, span, to_char(start, 'YYYY-MM-DD') as start, s.item_id, minutes, count(*)::int as n
         from stat_specimen_item f
         cross join lateral (values ('preAnalytical', collected_at, received_at), ('inLab', received_at, reported_at))
                            m(measure, start_at, end_at)
         cross join lateral (select (end_at at time zone 'UTC') + make_interval(mins => $1) as local_end) l
         cross join lateral (values ('day', local_end::date, f.item_id), ('day', local_end::date, 0),
                                    ('week', date_trunc('week', local_end)::date, 0)) s(span, start, item_id)
         cross join lateral (select stat_minutes(start_at, end_at) as minutes) x
        where not cancelled and start_at is not null and end_at is not null
        group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4, 5, 6`,
      [offset],
    );
  const keptSpans = () =>
    db.query<Record<string, unknown>>(
      `select org_id, measure, span, to_char(start, 'YYYY-MM-DD') as start, item_id, v.minutes,
              (v.upto - coalesce(lag(v.upto) over (partition by org_id, measure, span, start, item_id order by v.o), 0))::int as n
         from stat_turnaround_span cross join lateral unnest(minutes, upto) with ordinality v(minutes, upto, o)
        order by 1, 2, 3, 4, 5, 6`,
    );

  it('follow the tests as they are written, edited, cancelled and removed, and a change of clock', async () => {
    await db.query('select stat_set_clock(480)');
    await writeTests(1, 400);
    await db.query(`update stat_specimen_item set reported_at = received_at + interval '95 minutes'
                     where reported_at is null and specimen_id % 3 = 0`);
    await db.query('update stat_specimen_item set cancelled = true where specimen_id % 17 = 0');
    await db.query('update stat_specimen_item set hospital_id = 23 where specimen_id % 13 = 0');
    await db.query('delete from stat_specimen_item where specimen_id % 19 = 0');
    expect(await kept()).toEqual(await counted(480));
    expect(await keptSpans()).toEqual(await countedSpans(480));
    await db.query('select stat_set_clock(-300)');
    expect(await kept()).toEqual(await counted(-300));
    expect(await keptSpans()).toEqual(await countedSpans(-300));
    await db.query('truncate stat_specimen_item');
    expect(await kept()).toEqual([]);
    expect(await keptSpans()).toEqual([]);
  });

  it('give the figures of counting every test, for whole months, ragged periods and open ends', async () => {
    const offset = offsetAt(new Date());
    await db.query('select stat_set_clock($1::int)', [offset]);
    await writeTests(1000, 600);
    const local = (y: number, m: number, d: number) => new Date(y, m, d);
    const periods = [
      {},
      { from: local(2025, 0, 1), to: local(2026, 0, 1) },
      { from: local(2025, 2, 1), to: local(2025, 3, 1) },
      { from: local(2025, 1, 14), to: local(2025, 8, 3) },
      { from: local(2025, 4, 10), to: local(2025, 4, 20) },
      { from: local(2025, 5, 15) },
      { to: local(2025, 3, 7) },
      // Ragged ends within a day: the hours before the first whole day and after the last are counted.
      { from: new Date(2025, 4, 10, 8, 30), to: new Date(2025, 6, 2, 17, 15) },
      { from: new Date(2025, 4, 10, 8), to: new Date(2025, 4, 16, 20) },
      { from: new Date(2025, 10, 5, 23, 59, 59) },
    ];
    const figures = async (q: FactQuery, which: 'preAnalytical' | 'inLab') =>
      rounded(
        (await turnaround(db, q, which, { defaultMinutes: 180, itemTargets: true })).sort((a, b) =>
          String(a.key).localeCompare(String(b.key)),
        ),
      );
    const dimensions: Dimension[] = ['test', 'group', 'hospital', 'month', 'day', 'week'];
    // Days and weeks narrowed to an item read its own kept days; narrowed to a hospital, every test.
    const narrowed = (by: Dimension, i: number) =>
      by === 'test' || (by === 'day' && i % 2 === 0)
        ? { hospital: 21 }
        : by === 'week' && i % 3 === 0
          ? { item: 12 }
          : {};
    const asked = periods.flatMap((period, i) =>
      dimensions.flatMap((by) =>
        (['preAnalytical', 'inLab'] as const).map((which) => ({
          which,
          q: {
            orgId: ORG,
            period,
            by,
            offsetMinutes: offset,
            timeZone: processTimeZone(),
            ...narrowed(by, i),
          } as FactQuery,
        })),
      ),
    );
    const fromCounts = [];
    for (const { q, which } of asked) fromCounts.push(await figures(q, which));
    // Without a clock the month counts are not read: every test is counted on the spot.
    await db.query('update stat_clock set offset_minutes = null');
    for (const [i, { q, which }] of asked.entries()) {
      const everyTest = await figures(q, which);
      // Narrowed to a hospital or an item, a short period may hold none of its tests.
      if (q.hospital === undefined && q.item === undefined)
        expect(everyTest.length, JSON.stringify({ ...q, which })).toBeGreaterThan(0);
      expect(fromCounts[i], JSON.stringify({ ...q, which })).toEqual(everyTest);
    }
  }, 300_000);
});

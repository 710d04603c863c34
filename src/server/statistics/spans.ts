import { figuresOf, histogramRanks, sortedRanks } from './percentiles.js';
import { localDate, type Period } from './period.js';
import type { Sql } from './sql.js';

/**
 * Turnaround per lab day or week read off the sorted histograms kept per day and week (migration 22):
 * a year by day is 365 rows, not two million tests. Whole days of the period come from them, its
 * ragged ends (`edges`: tests of key, item_id, minutes, n) are counted on the spot. Rows of item 0 give
 * the percentiles; the rows per day and item give how many tests were within each item's own target.
 */
export interface SpanAsk {
  orgId: number;
  measure: string;
  by: 'day' | 'week';
  /** Only this item's tests, if given. */
  item?: number;
  /** The whole lab days of the period (from its first to the day after its last; open ends stay open). */
  days: Period;
  /** The lab's time zone, whose calendar the days are of. */
  timeZone: string;
  /** The tests of the ragged ends: a select of key, item_id, minutes, n (none: an empty string). */
  edges: string;
  /** A test's target in minutes, of its item (a column); `join` brings what `value` reads. */
  target: (item: string) => { join: string; value: string };
}

/** The statement of the figures per day or week (its parameters added to `sql`). */
export function spanTurnaround(sql: Sql, ask: SpanAsk): string {
  const org = sql.param(ask.orgId);
  const measure = sql.param(ask.measure);
  const from = ask.days.from && sql.param(localDate(ask.days.from, ask.timeZone));
  const to = ask.days.to && sql.param(localDate(ask.days.to, ask.timeZone));
  const item = ask.item === undefined ? undefined : sql.param(ask.item);
  const all = (conditions: (string | undefined)[]) => conditions.filter(Boolean).join(' and ') || 'true';
  const spans = (span: 'day' | 'week', items: string, conditions: (string | undefined)[], join = '') =>
    `stat_turnaround_span s ${join} where ${all([
      `s.org_id = ${org}`,
      `s.measure = ${measure}`,
      `s.span = '${span}'`,
      items,
      'cardinality(s.minutes) > 0',
      ...conditions,
    ])}`;
  const inDays = [from && `s.start >= ${from}::date`, to && `s.start < ${to}::date`];
  const week = `date_trunc('week', s.start::timestamp)::date`;
  // A week all of whose days are in the period (its Monday a column).
  const wholeWeek = (monday: string) =>
    all([from && `${monday} >= ${from}::date`, to && `${monday} + 7 <= ${to}::date`]);
  const key = `to_char(${ask.by === 'day' ? 's.start' : week}, 'YYYY-MM-DD')`;
  const dayRows = `s.item_id = ${item ?? 0}`;
  // Read as kept: each day (by day), each whole week of all items (by week). The days of weeks the
  // period cuts, and an item's days by week, are merged from their day rows.
  const kept =
    ask.by === 'day'
      ? `select ${key} as key, s.minutes, s.upto from ${spans('day', dayRows, inDays)}`
      : item === undefined
        ? `select ${key} as key, s.minutes, s.upto from ${spans('week', 's.item_id = 0', [wholeWeek('s.start')])}`
        : 'select null::text as key, null::int[] as minutes, null::int[] as upto where false';
  const merged =
    ask.by === 'day'
      ? []
      : [
          `select ${key} as key, s.minutes, s.upto from ${spans('day', dayRows, [...inDays, item === undefined ? `not (${wholeWeek(week)})` : undefined])}`,
        ];
  const counts = merged.map(
    (rows) => `select s.key, v.minutes, v.n from (${rows}) s
       cross join lateral (select v.minutes, v.upto - coalesce(lag(v.upto) over (order by v.o), 0) as n
                             from unnest(s.minutes, s.upto) with ordinality v(minutes, upto, o)) v`,
  );
  const edges = ask.edges || 'select null::text as key, null::int as item_id, null::int as minutes, 0 as n where false';
  const edgeTarget = ask.target('e.item_id');
  const dayTarget = ask.target('s.item_id');
  const reached = `least(floor(${dayTarget.value}), 2147483647)::int`;
  const perItem = item === undefined ? 's.item_id <> 0' : `s.item_id = ${item}`;
  return `with edges as (
       select e.key, e.minutes, e.n, ${edgeTarget.value} as target from (${edges}) e ${edgeTarget.join}),
     counted as (${[...counts, 'select key, minutes, n from edges'].join(' union all ')}),
     ${histogramRanks('counted', false)},
     ${sortedRanks(`(${kept})`)},
     targets as (
       select key, sum(within)::int as within, min(low) as low, max(high) as high
         from (select ${key} as key, coalesce(s.upto[nullif(width_bucket(${reached}, s.minutes), 0)], 0) as within,
                      ${dayTarget.value} as low, ${dayTarget.value} as high
                 from ${spans('day', perItem, inDays, dayTarget.join)}
               union all
               select key, coalesce(sum(n) filter (where minutes <= target), 0), min(target), max(target)
                 from edges group by key) w
        group by key),
     ranks as (select * from (select * from hranks union all select * from sranks) r join targets using (key))
     ${figuresOf('ranks')}`;
}

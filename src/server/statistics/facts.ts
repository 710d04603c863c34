import type { Locale } from '../../shared/i18n/messages.js';
import type { Queryable } from '../kernel/db/database.js';
import type { ResourceName } from '../kernel/resources/store.js';
import { STAT_MESSAGES, say } from './messages.js';
import { percentilesOf } from './percentiles.js';
import {
  INTERVALS,
  edgesOf,
  localDate,
  periodLabel,
  periodSql,
  periodStartSql,
  wholeDays,
  wholeMonths,
  type Interval,
  type Period,
} from './period.js';
import { spanTurnaround } from './spans.js';
import { Sql } from './sql.js';

export { percentilesOf };

/**
 * The statistics' SQL over the fact tables of migration 15 (stat_specimen, stat_specimen_item,
 * stat_work_hour): every figure is one aggregate in the database, on an index range of the period, and
 * only the aggregated rows come back (a few per hospital, test, person or day).
 */

/** What a row of a figure is per: a record (its id, named afterwards) or a period of the lab's calendar. */
export type Dimension = 'hospital' | 'specimenType' | 'purpose' | 'group' | 'test' | Interval;

/** The record each dimension names, for the titles of its rows. */
export const DIMENSION_RESOURCE: Partial<Record<Dimension, ResourceName>> = {
  hospital: 'referralHospital',
  specimenType: 'specimenType',
  purpose: 'inspectionPurpose',
  group: 'professionalGroup',
  test: 'inspectionItem',
};

/** The query a figure is asked with: the lab, the period, the breakdown and the records it is narrowed to. */
export interface FactQuery {
  orgId: number;
  period: Period;
  by: Dimension;
  /** The lab's wall clock against UTC, in minutes, for days, weeks and months. */
  offsetMinutes: number;
  /** The lab's time zone: where its months begin. */
  timeZone: string;
  hospital?: number;
  group?: number;
  item?: number;
}

/** A breakdown asked for, if the figure offers it; else its default; else a refusal naming the choices. */
export function dimensionOf(
  value: string | undefined,
  offered: readonly Dimension[],
  locale: Locale,
): Dimension | undefined {
  if (value === undefined || value === '') return undefined;
  if ((offered as readonly string[]).includes(value)) return value as Dimension;
  say(locale, STAT_MESSAGES.badDimension, { value: value.slice(0, 40), choices: offered.join(', ') }, 'by');
}

/** An id filter (hospital, group, item): a positive whole number, or absent. */
export function idOf(value: string | undefined, label: string, locale: Locale): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^[1-9]\d{0,9}$/.test(value) || Number(value) > 2_147_483_647)
    say(locale, STAT_MESSAGES.badId, { label, value: value.slice(0, 40) }, label);
  return Number(value);
}

const isInterval = (d: Dimension): d is Interval => (INTERVALS as readonly string[]).includes(d);

/** One aggregated row: its key (an id, or a period's label) and figures. */
export type KeyedRow = { key: number | string | null } & Record<string, unknown>;

/**
 * Specimen volume: specimens (not tests, not reports) registered in the period, cancelled ones left
 * out, per hospital, specimen type, purpose, professional group, test or period. A specimen with tests
 * of two groups counts once in each group, and once in the total (`share` is of that total). The
 * tests of a specimen are known from its receipt (they are ordered then), so group and test figures
 * count received specimens.
 */
export async function specimenVolume(db: Queryable, q: FactQuery): Promise<{ rows: KeyedRow[]; total: number }> {
  if (q.item === undefined && q.by === 'group') return groupVolume(db, q);
  const perTest = q.by === 'group' || q.by === 'test';
  const sql = new Sql();
  sql.where.push(`f.org_id = ${sql.param(q.orgId)}`, 'not f.cancelled');
  sql.within('f.registered_at', q.period);
  if (q.hospital !== undefined) sql.where.push(`f.hospital_id = ${sql.param(q.hospital)}`);
  const itemFilters: string[] = [];
  if (q.group !== undefined) itemFilters.push(`group_id = ${sql.param(q.group)}`);
  if (q.item !== undefined) itemFilters.push(`item_id = ${sql.param(q.item)}`);
  if (perTest) sql.where.push(...itemFilters.map((c) => `f.${c}`));
  else if (itemFilters.length > 0)
    sql.where.push(
      `exists (select 1 from stat_specimen_item i where i.org_id = f.org_id and i.specimen_id = f.specimen_id and ${itemFilters.map((c) => `i.${c}`).join(' and ')})`,
    );
  const key = isInterval(q.by)
    ? periodSql('f.registered_at', q.by, q.offsetMinutes)
    : {
        hospital: 'f.hospital_id',
        specimenType: 'f.specimen_type_id',
        purpose: 'p.purpose',
        group: 'f.group_id',
        test: 'f.item_id',
      }[q.by];
  const from = perTest ? 'stat_specimen_item f' : 'stat_specimen f';
  const unnest = q.by === 'purpose' ? 'cross join lateral unnest(f.purposes) as p(purpose)' : '';
  // A test row is one specimen and item: per test, rows are specimens; per group or in all, a specimen
  // with two tests of a group counts once, made distinct by hashing (count(distinct) would sort them all).
  const specimens = (key: string) =>
    q.by === 'test'
      ? `select ${key} as key from ${from} ${sql.clause()}`
      : `select distinct ${key} as key, f.specimen_id from ${from} ${sql.clause()}`;
  const rows = await db.query<KeyedRow & { count: number }>(
    perTest
      ? `select key, count(*)::int as count from (${specimens(key)}) x group by key`
      : `select ${key} as key, count(*)::int as count from ${from} ${unnest} ${sql.clause()} group by 1`,
    sql.values,
  );
  if (perTest && q.item === undefined) return { rows, total: (await groupVolume(db, q)).total };
  const [total] = await db.query<{ n: number }>(
    perTest
      ? `select count(*)::int as n from (select distinct f.specimen_id from ${from} ${sql.clause()}) x`
      : `select count(*)::int as n from ${from} ${sql.clause()}`,
    sql.values,
  );
  return { rows, total: total?.n ?? 0 };
}

/**
 * Specimen volume per professional group (a specimen once in each group it has tests of) and the
 * specimens with tests (of the group asked), from the groups each specimen keeps (migration 22): one
 * index range of specimens, none of their tests made distinct. Each specimen's first group counts it
 * in the total.
 */
async function groupVolume(db: Queryable, q: FactQuery): Promise<{ rows: KeyedRow[]; total: number }> {
  const sql = new Sql();
  sql.where.push(`f.org_id = ${sql.param(q.orgId)}`, 'not f.cancelled');
  sql.within('f.registered_at', q.period);
  if (q.hospital !== undefined) sql.where.push(`f.hospital_id = ${sql.param(q.hospital)}`);
  if (q.group !== undefined) sql.where.push(`g.key = ${sql.param(q.group)}`);
  const counted = await db.query<KeyedRow & { count: number; firsts: number }>(
    `select g.key, count(*)::int as count, count(*) filter (where g.o = 1)::int as firsts
       from stat_specimen f cross join lateral unnest(f.groups) with ordinality g(key, o)
      ${sql.clause()} group by g.key`,
    sql.values,
  );
  // Narrowed to a group, each specimen counted is in that group once.
  const total = counted.reduce((n, r) => n + (q.group === undefined ? r.firsts : r.count), 0);
  return { rows: counted.map(({ firsts: _firsts, ...row }) => row), total };
}

/** The two turnarounds of domain "Specimen lifecycle", each between two of the specimen's event times. */
export const TURNAROUNDS = {
  /** Collection (the collect step, at the bench) → receipt in the lab; counted in the period of the receipt. */
  preAnalytical: { start: 'collected_at', end: 'received_at' },
  /** Receipt → report issued; counted in the period of the report. */
  inLab: { start: 'received_at', end: 'reported_at' },
} as const;

/** An item's own turnaround hours (inspection item tatHours), in minutes, where it has some. */
const ITEM_TARGETS = 'stat_item_target';

/** Whole minutes between two times, a minute begun counting as one. */
export const wholeMinutes = (from: string, to: string) => `stat_minutes(${from}, ${to})`;

/**
 * Turnaround of tests (an item ordered on a specimen): median and 90th percentile, longest, and how
 * many were within their target, in whole minutes (a minute begun counts, so "within target" holds
 * exactly when the time to the second is within it), per test, group, hospital or period.
 * `itemTargets`: each item's own tatHours where it has them, the default else.
 *
 * Why whole minutes: the percentiles of a year are over millions of tests. Sorting them (what
 * percentile_cont does) takes seconds; counting them per row and minute is one hash aggregate, and
 * leaves a few thousand rows to read the percentiles from (`percentilesOf`).
 */
export async function turnaround(
  db: Queryable,
  q: FactQuery,
  which: keyof typeof TURNAROUNDS,
  target: { defaultMinutes: number; itemTargets: boolean },
): Promise<KeyedRow[]> {
  const sql = new Sql();
  const defaultTarget = sql.param(target.defaultMinutes);
  const targetOf = (item: string) =>
    target.itemTargets
      ? {
          join: `left join ${ITEM_TARGETS} t on t.id = ${item}`,
          value: `coalesce(t.minutes, ${defaultTarget}::numeric)`,
        }
      : { join: '', value: `${defaultTarget}::numeric` };
  const counted = await clockCounted(db, q);
  const days = counted && spansServe(q) ? wholeDays(q.period, q.timeZone) : undefined;
  if (days && (q.by === 'day' || q.by === 'week')) {
    const edges = edgesOf(q.period, days).map((period) => testRows(sql, q, which, period));
    const statement = spanTurnaround(sql, {
      orgId: q.orgId,
      measure: which,
      by: q.by,
      item: q.item,
      days,
      timeZone: q.timeZone,
      edges: edges.join(' union all '),
      target: targetOf,
    });
    return db.query<KeyedRow>(statement, sql.values);
  }
  const months = counted && q.by !== 'day' && q.by !== 'week' ? wholeMonths(q.period, q.timeZone) : undefined;
  const tests = [
    ...(months ? [monthCounts(sql, q, which, months)] : []),
    ...(months ? edgesOf(q.period, months) : [q.period]).map((period) => testRows(sql, q, which, period, true)),
  ];
  const { join, value } = targetOf('f.item_id');
  const figures = percentilesOf(
    `select f.key, f.minutes, ${value} as target, f.n from (${tests.join(' union all ')}) f ${join}`,
  );
  // Periods are grouped on as dates and labelled once each: a year by month is 765,000 rows at a
  // million specimens, and a label made per row cost a third of the call.
  const labelled = isInterval(q.by)
    ? `select ${periodLabel('r.key', q.by)} as key, r.count, r."medianMinutes", r."p90Minutes", r."maxMinutes",
              r."withinTarget", r."targetMinutes" from (${figures}) r`
    : figures;
  return db.query<KeyedRow>(labelled, sql.values);
}

/** Days and weeks are kept for all tests and per item, not per hospital or group (narrowed, they are counted). */
const spansServe = (q: FactQuery) =>
  (q.by === 'day' || q.by === 'week') && q.hospital === undefined && q.group === undefined;

/** The narrowing of a figure to a hospital, group or test, on a table aliased f. */
function narrowed(sql: Sql, q: FactQuery) {
  if (q.hospital !== undefined) sql.where.push(`f.hospital_id = ${sql.param(q.hospital)}`);
  if (q.group !== undefined) sql.where.push(`f.group_id = ${sql.param(q.group)}`);
  if (q.item !== undefined) sql.where.push(`f.item_id = ${sql.param(q.item)}`);
}

/** Each test of the period, one row each (key, item, minutes, n = 1); `dated`: a period's key is its first day. */
function testRows(into: Sql, q: FactQuery, which: keyof typeof TURNAROUNDS, period: Period, dated = false): string {
  const { start, end } = TURNAROUNDS[which];
  const sql = into.clauses();
  sql.where.push(`f.org_id = ${sql.param(q.orgId)}`, 'not f.cancelled', `f.${start} is not null`);
  sql.within(`f.${end}`, period);
  narrowed(sql, q);
  const key = isInterval(q.by)
    ? (dated ? periodStartSql : periodSql)(`f.${end}`, q.by, q.offsetMinutes)
    : { hospital: 'f.hospital_id', group: 'f.group_id', test: 'f.item_id', specimenType: 'null', purpose: 'null' }[
        q.by
      ];
  return `select ${key} as key, f.item_id, ${wholeMinutes(`f.${start}`, `f.${end}`)} as minutes, 1 as n
            from stat_specimen_item f ${sql.clause()}`;
}

/** The counted tests of whole lab months (migration 16), by item and minute. */
function monthCounts(into: Sql, q: FactQuery, which: keyof typeof TURNAROUNDS, months: Period): string {
  const sql = into.clauses();
  sql.where.push(`f.org_id = ${sql.param(q.orgId)}`, `f.measure = ${sql.param(which)}`, 'f.n > 0');
  if (months.from) sql.where.push(`f.month >= ${sql.param(localDate(months.from, q.timeZone))}::date`);
  if (months.to) sql.where.push(`f.month < ${sql.param(localDate(months.to, q.timeZone))}::date`);
  narrowed(sql, q);
  const key =
    q.by === 'month'
      ? 'f.month'
      : { hospital: 'f.hospital_id', group: 'f.group_id', test: 'f.item_id', specimenType: 'null', purpose: 'null' }[
          q.by as Exclude<Dimension, Interval>
        ];
  return `select ${key} as key, f.item_id, f.minutes, f.n from stat_turnaround_month f ${sql.clause()}`;
}

/** Whether the month, day and week counts are kept with the clock this figure is asked with (not before a server set it). */
async function clockCounted(db: Queryable, q: FactQuery): Promise<boolean> {
  const [clock] = await db.query<{ offset: number | null }>('select offset_minutes as offset from stat_clock');
  return clock?.offset === q.offsetMinutes;
}

/** Steps of the lifecycles a person's workload counts, by the event that records each. */
export const WORK_STEPS = {
  registered: [['specimen', 'create']],
  collected: [['specimen', 'collect']],
  received: [['specimen', 'receive']],
  rejected: [['specimen', 'reject']],
  tested: [['inspectionResult', 'record']],
  reviewed: [['inspectionResult', 'firstReview']],
  audited: [['inspectionResult', 'audit']],
  reported: [['reportRecord', 'create']],
} as const satisfies Record<string, readonly (readonly [string, string])[]>;
export type WorkStep = keyof typeof WORK_STEPS;

/**
 * Workload: the steps each person did in the period (who: the signed-in account that ran the step, as
 * its event records), per person and step; rows of people with none of the counted steps are left out.
 */
export async function workload(
  db: Queryable,
  q: Pick<FactQuery, 'orgId' | 'period'>,
): Promise<{ actorId: number; name: string; counts: Record<WorkStep, number> }[]> {
  const sql = new Sql();
  sql.where.push(`org_id = ${sql.param(q.orgId)}`);
  sql.within('hour', q.period);
  const steps = Object.entries(WORK_STEPS) as [WorkStep, readonly (readonly [string, string])[]][];
  const pairs = steps.flatMap(([, events]) => events.map(([r, n]) => `('${r}', '${n}')`));
  sql.where.push(`(resource, name) in (${pairs.join(', ')})`);
  const columns = steps.map(
    ([step, events]) =>
      `coalesce(sum(n) filter (where ${events.map(([r, n]) => `(resource = '${r}' and name = '${n}')`).join(' or ')}), 0)::int as "${step}"`,
  );
  const rows = await db.query<{ actorId: number; name: string | null } & Record<WorkStep, number>>(
    `select actor_id as "actorId", max(actor_name) as name, ${columns.join(', ')}
       from stat_work_hour ${sql.clause()} group by actor_id`,
    sql.values,
  );
  return rows.map(({ actorId, name, ...counts }) => ({
    actorId,
    name: name ?? String(actorId),
    counts: counts as Record<WorkStep, number>,
  }));
}

/** One lab's figures side by side with the others (group data analysis). */
export async function labSummary(db: Queryable, orgId: number, period: Period) {
  const registered = new Sql();
  registered.where.push(`org_id = ${registered.param(orgId)}`, 'not cancelled');
  registered.within('registered_at', period);
  const [specimens] = await db.query<{ n: number }>(
    `select count(*)::int as n from stat_specimen ${registered.clause()}`,
    registered.values,
  );
  const [tests] = await db.query<{ n: number }>(
    `select count(*)::int as n from stat_specimen_item ${registered.clause()}`,
    registered.values,
  );
  const reported = new Sql();
  reported.where.push(`org_id = ${reported.param(orgId)}`, 'received_at is not null');
  reported.within('reported_at', period);
  const [reports] = await db.query<{ count: number; medianMinutes: number | null; p90Minutes: number | null }>(
    percentilesOf(
      `select 1 as key, ${wholeMinutes('received_at', 'reported_at')} as minutes, null::numeric as target, 1 as n
         from stat_specimen ${reported.clause()}`,
    ),
    reported.values,
  );
  const issued = new Sql();
  issued.where.push(`e.org_id = ${issued.param(orgId)}`, `e.resource = 'reportRecord'`, `e.name = 'create'`);
  issued.within('e.at', period);
  const [critical] = await db.query<{ n: number }>(
    `select count(*)::int as n from record_event e
       join stat_report r on r.id = e.record_id
      ${issued.clause()} and r.has_critical`,
    issued.values,
  );
  return {
    specimens: specimens?.n ?? 0,
    tests: tests?.n ?? 0,
    reports: reports?.count ?? 0,
    critical: critical?.n ?? 0,
    medianInLabMinutes: reports?.medianMinutes ?? null,
    p90InLabMinutes: reports?.p90Minutes ?? null,
  };
}

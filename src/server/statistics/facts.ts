import type { Locale } from '../../shared/i18n/messages.js';
import type { Queryable } from '../kernel/db/database.js';
import type { ResourceName } from '../kernel/resources/store.js';
import { STAT_MESSAGES, say } from './messages.js';
import { INTERVALS, periodSql, type Interval, type Period } from './period.js';

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

/** Clauses and parameters of a query, built together so that the numbering of $n stays right. */
class Sql {
  readonly values: unknown[] = [];
  readonly where: string[] = [];
  param(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
  /** The column within the period (half-open), and present. */
  within(column: string, period: Period) {
    this.where.push(`${column} is not null`);
    if (period.from) this.where.push(`${column} >= ${this.param(period.from)}::timestamptz`);
    if (period.to) this.where.push(`${column} < ${this.param(period.to)}::timestamptz`);
  }
  clause(): string {
    return this.where.length > 0 ? `where ${this.where.join(' and ')}` : '';
  }
}

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
  const counted = perTest ? 'count(distinct f.specimen_id)::int' : 'count(*)::int';
  const rows = await db.query<KeyedRow & { count: number }>(
    `select ${key} as key, ${counted} as count from ${from} ${unnest} ${sql.clause()} group by 1`,
    sql.values,
  );
  const [total] = await db.query<{ n: number }>(`select ${counted} as n from ${from} ${sql.clause()}`, sql.values);
  return { rows, total: total?.n ?? 0 };
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

/**
 * Turnaround of tests (an item ordered on a specimen): median and 90th percentile (continuous, as
 * percentile_cont interpolates), longest, and how many were within their target, in minutes, per test,
 * group, hospital or period. `itemTargets`: each item's own tatHours where it has them, the default else.
 */
export async function turnaround(
  db: Queryable,
  q: FactQuery,
  which: keyof typeof TURNAROUNDS,
  target: { defaultMinutes: number; itemTargets: boolean },
): Promise<KeyedRow[]> {
  const { start, end } = TURNAROUNDS[which];
  const sql = new Sql();
  sql.where.push(`f.org_id = ${sql.param(q.orgId)}`, 'not f.cancelled', `f.${start} is not null`);
  sql.within(`f.${end}`, q.period);
  if (q.hospital !== undefined) sql.where.push(`f.hospital_id = ${sql.param(q.hospital)}`);
  if (q.group !== undefined) sql.where.push(`f.group_id = ${sql.param(q.group)}`);
  if (q.item !== undefined) sql.where.push(`f.item_id = ${sql.param(q.item)}`);
  const key = isInterval(q.by)
    ? periodSql(`f.${end}`, q.by, q.offsetMinutes)
    : { hospital: 'f.hospital_id', group: 'f.group_id', test: 'f.item_id', specimenType: 'null', purpose: 'null' }[
        q.by
      ];
  const defaultTarget = sql.param(target.defaultMinutes);
  const targetSql = target.itemTargets ? `coalesce(t.minutes, ${defaultTarget}::numeric)` : `${defaultTarget}::numeric`;
  const join = target.itemTargets ? `left join ${ITEM_TARGETS} t on t.id = f.item_id` : '';
  return db.query<KeyedRow>(
    `select key, count(*)::int as count,
            percentile_cont(0.5) within group (order by minutes) as "medianMinutes",
            percentile_cont(0.9) within group (order by minutes) as "p90Minutes",
            max(minutes) as "maxMinutes",
            count(*) filter (where minutes <= target)::int as "withinTarget",
            case when min(target) = max(target) then min(target)::float8 end as "targetMinutes"
       from (select ${key} as key, (extract(epoch from f.${end} - f.${start}) / 60)::float8 as minutes,
                    ${targetSql} as target
               from stat_specimen_item f ${join} ${sql.clause()}) x
      group by key`,
    sql.values,
  );
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
  const [reports] = await db.query<{ n: number; median: number | null; p90: number | null }>(
    `select count(*)::int as n,
            percentile_cont(0.5) within group (order by extract(epoch from reported_at - received_at)::float8 / 60) as median,
            percentile_cont(0.9) within group (order by extract(epoch from reported_at - received_at)::float8 / 60) as p90
       from stat_specimen ${reported.clause()}`,
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
    reports: reports?.n ?? 0,
    critical: critical?.n ?? 0,
    medianInLabMinutes: reports?.median ?? null,
    p90InLabMinutes: reports?.p90 ?? null,
  };
}

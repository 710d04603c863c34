import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Locale } from '../../shared/i18n/messages.js';
import { fieldByKey, optionLabel, type ScreenSchema } from '../../shared/screens/fields.js';
import type { Kernel } from '../kernel/context.js';
import type { Database } from '../kernel/db/database.js';
import { notFound, ok } from '../kernel/http/envelope.js';
import { actorOf } from '../kernel/http/request.js';
import type { StoredRecord } from '../kernel/resources/repository.js';
import { screenOf } from '../kernel/resources/commands.js';
import { exportWorkbook } from '../kernel/resources/excel.js';
import type { ApiRecord } from '../kernel/resources/records.js';
import { sendWorkbook } from '../kernel/resources/routes.js';
import { managedOrganizations } from '../kernel/identity/organizations.js';
import {
  DIMENSION_RESOURCE,
  dimensionOf,
  idOf,
  labSummary,
  specimenVolume,
  turnaround,
  workload,
  WORK_STEPS,
  type Dimension,
  type FactQuery,
  type KeyedRow,
  type WorkStep,
} from './facts.js';
import { share } from './figures.js';
import { page, sorted } from '../kernel/http/computedPage.js';
import { offsetAt, periodOf } from './period.js';
import { targetsOf } from './targets.js';
import { zoneOf } from '../kernel/labConfig/timeZone.js';

type Query = Record<string, string | undefined>;
type Row = Record<string, unknown>;
interface Env {
  ctx: Kernel;
  orgId: number;
  locale: Locale;
  /** The caller's lab's time zone: the periods asked are its local dates. */
  timeZone: string;
  query: Query;
  /** The screen of a source resource, when the caller may read it (its figures are the caller's to see). */
  source(resource: string): ScreenSchema;
  /** Records of a source resource the caller may read (the QC chart's, a page of points). */
  records(resource: string, params: Query): Promise<{ screen: ScreenSchema; records: StoredRecord[] }>;
}

/** Minutes as the screens show them: to a tenth (a median of two whole minutes may fall halfway). */
const minutes = (n: unknown) => (n === null || n === undefined ? null : Math.round(Number(n) * 10) / 10);

/** The rows' keys named: a record's title (its id when it has none left), a period as it reads, '—' for none. */
async function named(env: Env, by: Dimension, rows: KeyedRow[]): Promise<(Row & { group: string })[]> {
  const resource = DIMENSION_RESOURCE[by];
  const ids = rows.map((r) => r.key).filter((k): k is number => typeof k === 'number');
  const titles = resource ? await env.ctx.records.titles(env.ctx.db, resource, env.orgId, ids) : undefined;
  return rows.map(({ key, ...figures }) => ({
    group: key === null ? '—' : titles ? (titles.get(Number(key)) ?? String(key)) : String(key),
    ...(typeof key === 'number' && { key }),
    ...figures,
  }));
}

/** The query of a fact figure: the period of `periodKey`, the breakdown asked (or the default) and the filters. */
function factQuery(env: Env, periodKey: string, offered: readonly Dimension[], fallback: Dimension): FactQuery {
  const { query, locale } = env;
  return {
    orgId: env.orgId,
    period: periodOf(query, periodKey, locale, env.timeZone),
    by: dimensionOf(query.by, offered, locale) ?? fallback,
    offsetMinutes: offsetAt(env.ctx.now(), env.timeZone),
    timeZone: env.timeZone,
    hospital: idOf(query.hospital, 'hospital', locale),
    group: idOf(query.professionalGroup, 'professionalGroup', locale),
    item: idOf(query.item, 'item', locale),
  };
}

const VOLUME_BY: Dimension[] = ['hospital', 'specimenType', 'purpose', 'group', 'test', 'day', 'week', 'month'];
const TAT_BY: Dimension[] = ['test', 'group', 'hospital', 'day', 'week', 'month'];

/**
 * Specimen volume (domain: specimens, not reports nor tests) in the period of registration, broken
 * down by `fallback` unless the query asks another breakdown (`by`).
 */
function volume(fallback: Dimension): (env: Env) => Promise<Row[]> {
  return async (env) => {
    env.source('specimen');
    const q = factQuery(env, 'registeredAt', VOLUME_BY, fallback);
    const { rows, total } = await specimenVolume(env.ctx.db, q);
    return (await named(env, q.by, rows)).map((r) => ({ ...r, share: share(Number(r.count), total) }));
  };
}

/** Pre-analytical or in-lab turnaround of tests, per test (default), group, hospital or period. */
function tat(which: 'preAnalytical' | 'inLab', periodKey: string): (env: Env) => Promise<Row[]> {
  return async (env) => {
    env.source('specimen');
    const q = factQuery(env, periodKey, TAT_BY, 'test');
    const targets = await targetsOf(env.ctx.db, env.orgId);
    const rows = await turnaround(
      env.ctx.db,
      q,
      which,
      which === 'inLab'
        ? { defaultMinutes: targets.inLabMinutes, itemTargets: true }
        : { defaultMinutes: targets.preAnalyticalMinutes, itemTargets: false },
    );
    return (await named(env, q.by, rows)).map((r) => ({
      ...r,
      medianMinutes: minutes(r.medianMinutes),
      p90Minutes: minutes(r.p90Minutes),
      maxMinutes: minutes(r.maxMinutes),
      targetMinutes: minutes(r.targetMinutes),
      withinTargetShare: share(Number(r.withinTarget), Number(r.count)),
    }));
  };
}

/** Workload (domain: per person and period): the lifecycle steps each signed-in person ran. */
async function workloadRows(env: Env): Promise<Row[]> {
  env.source('specimen');
  const people = await workload(env.ctx.db, {
    orgId: env.orgId,
    period: periodOf(env.query, 'at', env.locale, env.timeZone),
  });
  const steps = Object.keys(WORK_STEPS) as WorkStep[];
  return people.map((p) => ({
    group: p.name,
    key: p.actorId,
    ...p.counts,
    count: steps.reduce((n, s) => n + p.counts[s], 0),
  }));
}

/**
 * Changes made to a specimen's records after entry (sample modification), per data kind and account,
 * from the operation log: updates of the records of screens that carry a specimen barcode.
 */
async function sampleModification(env: Env): Promise<Row[]> {
  const resources = env.ctx.screens
    .list()
    .filter((s) => s.fields.some((f) => f.type === 'barcode'))
    .map((s) => s.resource.name);
  const rows = await env.ctx.db.query<{ account: string | null; resource: string; n: number; records: number }>(
    `select user_account as account, resource, count(*)::int as n, count(distinct record_id)::int as records
       from operation_log
      where org_id = $1 and ($2::text is null or at >= $2::date) and ($3::text is null or at < $3::date + 1)
        and action = 'update' and resource = any($4::text[])
      group by user_account, resource`,
    [env.orgId, env.query.atFrom || null, env.query.atTo || null, resources],
  );
  return rows.map((r) => ({
    group: env.ctx.screens.byResource(r.resource)?.title[env.locale] ?? r.resource,
    account: r.account ?? '—',
    count: r.n,
    records: r.records,
  }));
}

/**
 * Group data analysis (spec 2.2, 104): each laboratory the caller manages, side by side (the base
 * organisation sees every lab, a main lab itself and its sub labs), from that lab's own lifecycle:
 * specimens registered, tests ordered, specimens reported and reports with critical values, in-lab turnaround.
 */
async function groupAnalysis(env: Env): Promise<Row[]> {
  env.source('specimen');
  const labs = (await managedOrganizations(env.ctx.db, env.orgId)).filter((o) => o.labType !== 'base');
  const period = periodOf(env.query, 'at', env.locale, env.timeZone);
  const rows: Row[] = [];
  for (const lab of labs) {
    const s = await labSummary(env.ctx.db, lab.id, period);
    rows.push({
      group: lab.name,
      labType: lab.labType,
      specimens: s.specimens,
      results: s.tests,
      reports: s.reports,
      critical: s.critical,
      medianInLabMinutes: minutes(s.medianInLabMinutes),
      p90InLabMinutes: minutes(s.p90InLabMinutes),
    });
  }
  return rows;
}

/** Handovers per receiving group: how many, their specimens and discrepancies, median minutes to receipt. */
async function handoverHandling(env: Env): Promise<Row[]> {
  const screen = env.source('handoverRecord');
  const from = env.query.handedAtFrom || null;
  const to = env.query.handedAtTo || null;
  const rows = await env.ctx.db.query<Row & { key: string | null }>(
    `select to_group as key, count(*)::int as count, coalesce(sum(specimen_count), 0)::int as specimens,
            count(*) filter (where status = 'discrepancy')::int as discrepancies,
            percentile_cont(0.5) within group (order by extract(epoch from received_at - handed_at)::float8 / 60)
              filter (where received_at >= handed_at) as "medianMinutes"
       from stat_handover
      where org_id = $1
        and ($2::text is null or handed_text >= $2) and ($3::text is null or handed_text < ($3::date + 1)::text)
      group by 1`,
    [env.orgId, from, to],
  );
  return rows.map(({ key, ...r }) => ({
    group: optionLabel(fieldByKey(screen, 'toGroup'), key, env.locale) ?? String(key ?? '—'),
    ...r,
    medianMinutes: minutes(r.medianMinutes),
  }));
}

/** Each statistic: the screen's resource (for its read permission), its default order and its figures. */
const STATISTICS: Record<string, { resource: string; sort: string; figures: (env: Env) => Promise<Row[]> }> = {
  professionalGroupVolume: {
    resource: 'statProfessionalGroupVolume',
    sort: 'count,desc',
    figures: volume('group'),
  },
  inspectionPurposeVolume: {
    resource: 'statInspectionPurposeVolume',
    sort: 'count,desc',
    figures: volume('purpose'),
  },
  specimenTypeVolume: { resource: 'statSpecimenTypeVolume', sort: 'count,desc', figures: volume('specimenType') },
  hospitalSubmissionVolume: {
    resource: 'statHospitalSubmissionVolume',
    sort: 'count,desc',
    figures: volume('hospital'),
  },
  preInspectionTat: {
    resource: 'statPreInspectionTat',
    sort: 'count,desc',
    figures: tat('preAnalytical', 'receivedAt'),
  },
  inLabTat: { resource: 'statInLabTat', sort: 'count,desc', figures: tat('inLab', 'reportedAt') },
  workload: { resource: 'statWorkload', sort: 'count,desc', figures: workloadRows },
  sampleModification: { resource: 'statSampleModification', sort: 'count,desc', figures: sampleModification },
  groupAnalysis: { resource: 'statGroupAnalysis', sort: 'specimens,desc', figures: groupAnalysis },
  handoverHandling: { resource: 'statHandoverHandling', sort: 'count,desc', figures: handoverHandling },
};

/**
 * A statistic's queries on PostgreSQL, in one transaction with more working memory than the server's
 * 4 MB default: a year's turnaround histogram at a million specimens then stays a hash aggregate in
 * memory rather than a sort on disk (1.4 → 0.7 s by month). PGlite's data is a lab's first years, and
 * its one connection is better not held across a statistic's several queries.
 */
function withWorkingMemory<T>(ctx: Kernel, fn: (ctx: Kernel) => Promise<T>): Promise<T> {
  if (ctx.db.kind !== 'postgres') return fn(ctx);
  return ctx.db.transaction(async (tx) => {
    await tx.query(`set local work_mem = '32MB'`);
    const db: Database = {
      ...ctx.db,
      query: (sql, params) => tx.query(sql, params),
      exec: (sql) => tx.exec(sql),
      transaction: (work) => work(tx),
    };
    return fn({ ...ctx, db });
  });
}

/** The statistic a request names, its screen (read permission asked) and the rows of its figures, in order. */
async function figuresOf(outer: Kernel, request: FastifyRequest<{ Params: { name: string }; Querystring: Query }>) {
  const statistic = STATISTICS[request.params.name];
  if (!statistic) throw notFound();
  const { screen, actor } = screenOf(outer, request, statistic.resource, 'read');
  const rows = await withWorkingMemory(outer, (ctx) => statistic.figures(envOf(ctx, request, actor.orgId)));
  return { statistic, screen, rows };
}

function envOf(ctx: Kernel, request: FastifyRequest<{ Querystring: Query }>, orgId: number): Env {
  const query = request.query;
  const actor = actorOf(request);
  return {
    ctx,
    orgId,
    locale: request.locale,
    timeZone: zoneOf(ctx, actor),
    query,
    source: (resource) => screenOf(ctx, request, resource, 'read').screen,
    async records(resource, params) {
      const { screen } = screenOf(ctx, request, resource, 'read');
      return { screen, records: await ctx.records.filtered(ctx.db, screen, orgId, params, 100_000) };
    },
  };
}

/**
 * Figures of the statistics screens (spec 2.2 statistics, handover statistics, QC charts), computed in
 * the database from the lab's lifecycle facts and operation log. The caller needs read on the
 * statistic's screen and on its source screen. Answers the generic list shape, so the generic screen
 * shows it as a table; export.xlsx answers the same table (all its rows, the screen's columns) as a sheet.
 */
export async function statisticsRoutes(app: FastifyInstance, ctx: Kernel) {
  app.get<{ Params: { name: string }; Querystring: Query }>('/api/statistics/:name', async (request) => {
    const { statistic, rows } = await figuresOf(ctx, request);
    return ok(page(rows, request.query, statistic.sort));
  });

  app.get<{ Params: { name: string }; Querystring: Query }>(
    '/api/statistics/:name/export.xlsx',
    async (request, reply) => {
      const { statistic, screen, rows } = await figuresOf(ctx, request);
      const all = sorted(rows, request.query.sort, statistic.sort).map((r, i) => ({ id: i + 1, ...r }));
      // The sheet reads a row's values by the screen's column keys only; figures have no record metadata.
      const buffer = await exportWorkbook(screen, all as unknown as ApiRecord[], request.locale);
      return sendWorkbook(reply, buffer, `${screen.title[request.locale]}.xlsx`);
    },
  );
}

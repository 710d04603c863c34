import type { FastifyInstance } from 'fastify';
import type { Locale } from '../../shared/i18n/messages.js';
import { fieldByKey, optionLabel, type ScreenSchema } from '../../shared/screens/fields.js';
import type { Kernel } from '../kernel/context.js';
import { notFound, ok } from '../kernel/http/envelope.js';
import type { StoredRecord } from '../kernel/resources/repository.js';
import type { ResourceName } from '../kernel/resources/store.js';
import { screenOf } from '../kernel/resources/commands.js';
import { managedOrganizations } from '../kernel/identity/organizations.js';
import { groupBy, minutesBetween, page, percentile, share } from './figures.js';

type Query = Record<string, string | undefined>;
type Row = Record<string, unknown>;
interface Env {
  ctx: Kernel;
  orgId: number;
  locale: Locale;
  query: Query;
  /**
   * Records of a source resource the caller may read, narrowed by the period filter of the statistic
   * (the query's {periodKey}From / To), or by the period given; the caller's organisation's, or those of
   * another organisation the caller manages (group data analysis).
   */
  records(
    resource: string,
    periodKey: string,
    period?: { from?: string; to?: string },
    orgId?: number,
  ): Promise<{ screen: ScreenSchema; records: StoredRecord[] }>;
}

/** A date-only upper bound covers the whole day of datetime values. */
const endOfDay = (to: string | undefined) => (to && to.length === 10 ? `${to} 23:59:59` : to);

const labelOf = (screen: ScreenSchema, key: string, value: unknown, locale: Locale) =>
  optionLabel(fieldByKey(screen, key), value, locale) ?? String(value ?? '—');

function volume(key: string): (env: Env) => Promise<Row[]> {
  return async (env) => {
    const { screen, records } = await env.records('reportRecord', 'reportedAt');
    const field = screen.fields.find((f) => f.key === key);
    const labels =
      field?.type === 'reference' && field.reference
        ? await env.ctx.records.titles(
            env.ctx.db,
            field.reference.resource as ResourceName,
            env.orgId,
            records.map((r) => r.data[key]).filter((v): v is number => typeof v === 'number'),
            field.reference.labelField,
          )
        : undefined;
    const name = (r: StoredRecord) => {
      const v = r.data[key];
      return v === undefined || v === null || v === ''
        ? '—'
        : labels
          ? (labels.get(v as number) ?? String(v))
          : String(v);
    };
    return [...groupBy(records, name)].map(([group, rs]) => ({
      group,
      count: rs.length,
      share: share(rs.length, records.length),
    }));
  };
}

function turnaround(fromKey: string, toKey: string): (env: Env) => Promise<Row[]> {
  return async (env) => {
    const { records } = await env.records('reportRecord', 'reportedAt');
    const timed = records
      .map((r) => ({
        group: String(r.data.professionalGroup ?? '—'),
        minutes: minutesBetween(r.data[fromKey], r.data[toKey]),
      }))
      .filter((r): r is { group: string; minutes: number } => r.minutes !== undefined);
    return [...groupBy(timed, (r) => r.group)].map(([group, rs]) => {
      const minutes = rs.map((r) => r.minutes);
      return {
        group,
        count: rs.length,
        medianMinutes: percentile(minutes, 50),
        p90Minutes: percentile(minutes, 90),
        maxMinutes: Math.max(...minutes),
      };
    });
  };
}

/** Who did which step of a specimen's way, as the lab's own records name them (text fields holding a person). */
const WORK_STEPS: {
  resource: string;
  periodKey: string;
  person: string;
  step: 'collected' | 'received' | 'tested' | 'reviewed' | 'diagnosed';
}[] = [
  { resource: 'specimen', periodKey: 'collectedAt', person: 'collector', step: 'collected' },
  { resource: 'specimen', periodKey: 'receivedAt', person: 'receiver', step: 'received' },
  { resource: 'inspectionResult', periodKey: 'testedAt', person: 'tester', step: 'tested' },
  { resource: 'inspectionResult', periodKey: 'testedAt', person: 'reviewer', step: 'reviewed' },
  { resource: 'reportRecord', periodKey: 'reportedAt', person: 'reviewer', step: 'reviewed' },
  { resource: 'pathologyDiagnosis', periodKey: 'diagnosedAt', person: 'diagnosedBy', step: 'diagnosed' },
];

/**
 * Workload (domain: the specimens and results handled per person and period): specimens collected and
 * received, results tested and reviewed (results and reports), pathology diagnoses, per staff member.
 */
async function workload(env: Env): Promise<Row[]> {
  const period = { from: env.query.atFrom, to: env.query.atTo };
  const counts = new Map<string, Record<(typeof WORK_STEPS)[number]['step'], number>>();
  for (const { resource, periodKey, person, step } of WORK_STEPS) {
    const { records } = await env.records(resource, periodKey, period);
    for (const r of records) {
      const name = typeof r.data[person] === 'string' ? (r.data[person] as string).trim() : '';
      if (!name) continue;
      const row = counts.get(name) ?? { collected: 0, received: 0, tested: 0, reviewed: 0, diagnosed: 0 };
      row[step]++;
      counts.set(name, row);
    }
  }
  return [...counts].map(([group, c]) => ({
    group,
    ...c,
    count: c.collected + c.received + c.tested + c.reviewed + c.diagnosed,
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
 * organisation sees every lab, a main lab itself and its sub labs), from that lab's own records:
 * specimens registered, results tested, reports and those with critical values, in-lab turnaround.
 */
async function groupAnalysis(env: Env): Promise<Row[]> {
  const labs = (await managedOrganizations(env.ctx.db, env.orgId)).filter((o) => o.labType !== 'base');
  const period = { from: env.query.atFrom, to: env.query.atTo };
  const rows: Row[] = [];
  for (const lab of labs) {
    const { records: specimens } = await env.records('specimen', 'collectedAt', period, lab.id);
    const { records: results } = await env.records('inspectionResult', 'testedAt', period, lab.id);
    const { records: reports } = await env.records('reportRecord', 'reportedAt', period, lab.id);
    const minutes = reports
      .map((r) => minutesBetween(r.data.receivedAt, r.data.reportedAt))
      .filter((m): m is number => m !== undefined);
    rows.push({
      group: lab.name,
      labType: lab.labType,
      specimens: specimens.length,
      results: results.length,
      reports: reports.length,
      critical: reports.filter((r) => r.data.hasCritical === true).length,
      medianInLabMinutes: percentile(minutes, 50),
      p90InLabMinutes: percentile(minutes, 90),
    });
  }
  return rows;
}

async function handoverHandling(env: Env): Promise<Row[]> {
  const { screen, records } = await env.records('handoverRecord', 'handedAt');
  return [...groupBy(records, (r) => labelOf(screen, 'toGroup', r.data.toGroup, env.locale))].map(([group, rs]) => ({
    group,
    count: rs.length,
    specimens: rs.reduce((n, r) => n + (Number(r.data.specimenCount) || 0), 0),
    discrepancies: rs.filter((r) => r.data.status === 'discrepancy').length,
    medianMinutes: percentile(
      rs.map((r) => minutesBetween(r.data.handedAt, r.data.receivedAt)).filter((m): m is number => m !== undefined),
      50,
    ),
  }));
}

/** Levey-Jennings points: each evaluated QC value with its lot's mean and ±1 / ±2 / ±3 SD lines. */
async function qcChart(env: Env): Promise<Row[]> {
  const { records } = await env.records('qcResult', 'runAt');
  const plans = await env.ctx.records.titles(
    env.ctx.db,
    'qcPlan',
    env.orgId,
    records.map((r) => r.data.plan as number),
  );
  const planRows = await env.records('qcPlan', '');
  const materials = await env.records('qcMaterial', '');
  const targetOf = (planId: unknown) => {
    const plan = planRows.records.find((p) => p.id === planId);
    const m = materials.records.find((x) => x.id === plan?.data.material);
    return m ? { mean: Number(m.data.targetMean), sd: Number(m.data.targetSd) } : undefined;
  };
  const round = (n: number) => Math.round(n * 10_000) / 10_000;
  return records
    .filter((r) => r.data.zScore !== undefined)
    .sort((a, b) => String(a.data.runAt).localeCompare(String(b.data.runAt)))
    .map((r, i) => {
      const t = targetOf(r.data.plan);
      return {
        group: plans.get(r.data.plan as number) ?? '—',
        runAt: r.data.runAt,
        value: r.data.value,
        zScore: r.data.zScore,
        violations: r.data.violations,
        count: i + 1,
        ...(t && {
          mean: t.mean,
          lower1s: round(t.mean - t.sd),
          upper1s: round(t.mean + t.sd),
          lower2s: round(t.mean - 2 * t.sd),
          upper2s: round(t.mean + 2 * t.sd),
          lower3s: round(t.mean - 3 * t.sd),
          upper3s: round(t.mean + 3 * t.sd),
        }),
      };
    });
}

/** Each statistic: the screen's resource (for its read permission), its default order and its figures. */
const STATISTICS: Record<string, { resource: string; sort: string; figures: (env: Env) => Promise<Row[]> }> = {
  professionalGroupVolume: {
    resource: 'statProfessionalGroupVolume',
    sort: 'count,desc',
    figures: volume('professionalGroup'),
  },
  inspectionPurposeVolume: {
    resource: 'statInspectionPurposeVolume',
    sort: 'count,desc',
    figures: volume('inspectionPurpose'),
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
    figures: turnaround('collectedAt', 'receivedAt'),
  },
  inLabTat: { resource: 'statInLabTat', sort: 'count,desc', figures: turnaround('receivedAt', 'reportedAt') },
  workload: { resource: 'statWorkload', sort: 'count,desc', figures: workload },
  sampleModification: { resource: 'statSampleModification', sort: 'count,desc', figures: sampleModification },
  groupAnalysis: { resource: 'statGroupAnalysis', sort: 'specimens,desc', figures: groupAnalysis },
  handoverHandling: { resource: 'statHandoverHandling', sort: 'count,desc', figures: handoverHandling },
  qcChart: { resource: 'statQcChart', sort: 'runAt,asc', figures: qcChart },
};

/**
 * Figures of the statistics screens (spec 2.2 statistics, handover statistics, QC charts), computed from
 * the organisation's own records and operation log. The caller needs read on the statistic's screen and
 * on each source screen. Answers the generic list shape, so the generic screen shows it as a table.
 */
export async function statisticsRoutes(app: FastifyInstance, ctx: Kernel) {
  app.get<{ Params: { name: string }; Querystring: Query }>('/api/statistics/:name', async (request) => {
    const statistic = STATISTICS[request.params.name];
    if (!statistic) throw notFound();
    const { actor } = screenOf(ctx, request, statistic.resource, 'read');
    const query = request.query;
    const env: Env = {
      ctx,
      orgId: actor.orgId,
      locale: request.locale,
      query,
      async records(resource, periodKey, period, orgId = actor.orgId) {
        const { screen } = screenOf(ctx, request, resource, 'read');
        const from = period ? period.from : query[`${periodKey}From`];
        const to = period ? period.to : query[`${periodKey}To`];
        const params: Query = periodKey ? { [`${periodKey}From`]: from, [`${periodKey}To`]: endOfDay(to) } : {};
        if (resource === 'qcResult' && query.plan) params.plan = query.plan;
        const records = await ctx.records.filtered(ctx.db, screen, orgId, params, 100_000);
        return { screen, records };
      },
    };
    return ok(page(await statistic.figures(env), query, statistic.sort));
  });
}

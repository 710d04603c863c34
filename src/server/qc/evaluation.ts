import type { QcResultRecord } from '../../shared/generated/resources.js';
import { localDateTime } from '../../shared/time.js';
import { appendLog } from '../kernel/audit/log.js';
import type { Kernel } from '../kernel/context.js';
import type { Queryable } from '../kernel/db/database.js';
import { findForLogin } from '../kernel/identity/accounts.js';
import { refuse } from '../kernel/resources/commands.js';
import type { HookRegistration, WriteContext } from '../kernel/resources/hooks.js';
import { QC_MESSAGES, say } from './messages.js';
import { inRunOrder, Series, type Judgement, type Run } from './series.js';
import { meanAndSd } from './westgard.js';
import { labTimeZone } from '../kernel/labConfig/timeZone.js';

/** Runs of a lot that establish its own target when the lot does not say how many. */
export const DEFAULT_RUNS_FOR_TARGET = 20;

const DERIVED = ['targetMean', 'targetSd', 'zScore', 'violations', 'status'] as const;
const changed = (before: QcResultRecord, after: Judgement) => DERIVED.some((k) => (before[k] ?? null) !== after[k]);

/** The series a write judged its run in, handed from before the write to after it. */
const seriesOfWrite = new WeakMap<WriteContext, Series>();

/**
 * The lot's own target, once it has enough in-control runs (not rejected; runs awaiting a target count):
 * the mean and sample SD of its first N runs, recorded with the period they came from, and fixed from
 * then on. Answers whether it was established by this write.
 */
async function establishTarget(ctx: WriteContext, series: Series, run: Run): Promise<string | undefined> {
  const lot = series.lotOf(run);
  if (!lot || typeof lot.data.establishedMean === 'number') return undefined;
  const needed = lot.data.runsForTarget ?? DEFAULT_RUNS_FOR_TARGET;
  const inControl = series.runs
    .filter((r) => series.lotOf(r)?.id === lot.id && r.data.status !== 'reject' && typeof r.data.value === 'number')
    .sort(inRunOrder)
    .slice(0, needed);
  if (inControl.length < needed) return undefined;
  const { mean, sd } = meanAndSd(inControl.map((r) => r.data.value!));
  if (!(sd > 0)) return undefined;
  const from = String(inControl[0]!.data.runAt);
  const data = {
    ...lot.data,
    establishedMean: mean,
    establishedSd: sd,
    establishedFrom: from,
    establishedTo: String(inControl[inControl.length - 1]!.data.runAt),
  };
  const { tx, kernel, actor, ip } = ctx;
  const stored = await kernel.records.update(tx, 'qcMaterial', lot, data, actor.id);
  series.materials.set(stored.id, stored);
  await appendLog(tx, actor, {
    resource: 'qcMaterial',
    recordId: lot.id,
    action: 'qcEstablishTarget',
    before: lot.data,
    after: stored.data,
    ip,
  });
  return from;
}

/**
 * Judges again, in run order, the runs whose judgement may follow from this one: the other levels of
 * its run and every later run of the series (or, when the lot's target was just established, every
 * run of the series from the first establishing one). Only runs whose derived fields change are
 * written, each logged. Answers the runs that became rejected.
 */
async function judgeLaterRuns(ctx: WriteContext, series: Series, run: Run, from?: string): Promise<Run[]> {
  const { tx, kernel, actor, ip } = ctx;
  const affected = (r: Run) =>
    from !== undefined
      ? String(r.data.runAt) >= from
      : r !== run && (r.data.runNo === run.data.runNo || inRunOrder(run, r) < 0);
  const rejected: Run[] = [];
  for (const later of series.runs.filter(affected)) {
    const judged = series.judge(later);
    if (!changed(later.data, judged)) continue;
    const current = (await kernel.records.get(tx, 'qcResult', actor.orgId, later.id))!;
    const stored = await kernel.records.update(tx, 'qcResult', current, { ...current.data, ...judged }, actor.id);
    later.data = stored.data;
    await appendLog(tx, actor, {
      resource: 'qcResult',
      recordId: later.id,
      action: 'qcEvaluate',
      before: current.data,
      after: stored.data,
      ip,
    });
    if (judged.status === 'reject' && current.data.status !== 'reject') rejected.push(later);
  }
  return rejected;
}

/** The accounts that may test the group's items today: whom a QC rejection of its item is pushed to. */
async function testers(kernel: Kernel, db: Queryable, orgId: number, group: number): Promise<number[]> {
  const today = localDateTime(kernel.now(), await labTimeZone(db, orgId, kernel.config.timeZone)).slice(0, 10);
  const grants = await kernel.records.find(db, 'inspectionAuthority', orgId, { professionalGroup: [group] });
  const accounts = grants
    .filter((g) => g.data.canTest === true && (!g.data.validUntil || g.data.validUntil >= today))
    .map((g) => String(g.data.userAccount));
  return (await Promise.all(accounts.map((a) => findForLogin(db, a)))).flatMap((u) => (u ? [u.id] : []));
}

/** A rejected run goes at once to everyone who tests the item's group: its patient results are held. */
async function alertRejection(ctx: WriteContext, run: QcResultRecord): Promise<void> {
  const { kernel, locale } = ctx;
  const db = kernel.db;
  const orgId = ctx.actor.orgId;
  const [plan, lot] = await Promise.all([
    kernel.records.get(db, 'qcPlan', orgId, run.plan),
    kernel.records.get(db, 'qcMaterial', orgId, run.material),
  ]);
  const [item] = await kernel.records.find(db, 'inspectionItem', orgId, { code: [String(lot?.data.itemCode)] });
  const group = Number(item?.data.professionalGroup);
  if (!item || !group) return;
  await kernel.push.pushToUsers(await testers(kernel, db, orgId, group), {
    type: 'error',
    title: say(QC_MESSAGES.rejectedTitle, locale),
    message: say(QC_MESSAGES.rejected, locale, {
      plan: String(plan?.data.name ?? ''),
      runNo: String(run.runNo),
      runAt: String(run.runAt).slice(0, 16),
      value: String(run.value),
      rules: String(run.violations),
      item: String(item.data.name ?? lot?.data.itemCode),
    }),
  });
}

/**
 * QC runs itself (domain: "Quality control"): saving or editing a QC result stamps the lot it was
 * measured with and judges it at once (z-score against the lot's target, the plan's Westgard rules
 * within the run and across runs); the derived fields are rewritten on every save, never taken from
 * input. After the write, the lot's own target is established once it has enough in-control runs, the
 * runs that depend on this one are judged again, and every run that became rejected alerts the item's
 * testers (the results capability holds the item's patient results on it).
 */
export const qcEvaluation: HookRegistration = {
  resource: 'qcResult',
  order: 50,
  hooks: {
    async beforeWrite(ctx, data) {
      const { tx, kernel, actor, locale, current } = ctx;
      const plan = await kernel.records.get(tx, 'qcPlan', actor.orgId, Number(data.plan));
      if (!plan) refuse(locale, QC_MESSAGES.noPlan, 'plan');
      // The lot stays the one the run was measured with, unless the run is moved to another plan.
      const keepLot = current?.data.plan === data.plan && typeof data.material === 'number';
      const material = keepLot ? data.material : plan.data.material;
      const series = await Series.of(kernel, tx, actor.orgId, plan);
      const run: Run = {
        id: current?.id ?? 0,
        data: { ...(data as unknown as QcResultRecord), material: material as number },
      };
      series.place(run);
      Object.assign(run.data, series.judge(run));
      seriesOfWrite.set(ctx, series);
      return { ...data, ...(run.data as unknown as Record<string, unknown>) };
    },
    async afterWrite(ctx, row) {
      const series = seriesOfWrite.get(ctx);
      const run = series?.runs.find((r) => r.id === 0 || r.id === row.id);
      if (!series || !run) return;
      run.id = row.id;
      run.data = row.data as unknown as QcResultRecord;
      const from = await establishTarget(ctx, series, run);
      const rejected = await judgeLaterRuns(ctx, series, run, from);
      // The run itself is judged again when its lot's target was just established: its last judgement counts.
      const others = rejected.filter((r) => r !== run);
      const rejectedNow = run.data.status === 'reject' && ctx.current?.data.status !== 'reject';
      for (const r of rejectedNow ? [run, ...others] : others) {
        const data = { ...r.data };
        ctx.afterCommit(() => alertRejection(ctx, data));
      }
    },
    // A deleted run no longer counts for the runs after it: once it is gone, they are judged again.
    async beforeDelete(ctx) {
      const { kernel, actor } = ctx;
      const gone: Run = { id: ctx.current.id, data: ctx.current.data as unknown as QcResultRecord };
      ctx.afterCommit(async () => {
        const rejected = await kernel.db.transaction(async (tx) => {
          const plan = await kernel.records.get(tx, 'qcPlan', actor.orgId, gone.data.plan);
          if (!plan) return [];
          const series = await Series.of(kernel, tx, actor.orgId, plan);
          return judgeLaterRuns({ ...ctx, tx }, series, gone);
        });
        for (const r of rejected) await alertRejection(ctx, r.data);
      });
    },
  },
};

import type { FastifyInstance } from 'fastify';
import type { Locale } from '../../shared/i18n/messages.js';
import type { ScreenSchema } from '../../shared/screens/fields.js';
import type { AppContext } from '../kernel/context.js';
import type { Queryable } from '../kernel/db/database.js';
import { ok } from '../kernel/http/envelope.js';
import { getRecord, listRecords, type StoredRecord } from '../kernel/resources/repository.js';
import { present } from '../kernel/resources/records.js';
import { refuse, runRecordCommand } from '../kernel/resources/commands.js';
import { evaluate, zScore, type QcRule } from './westgard.js';

const MESSAGES = {
  noPlan: { 'zh-CN': '质控计划不存在，无法评价', 'en-US': 'The QC plan of this result no longer exists' },
  noTarget: {
    'zh-CN': '质控品未设置有效的靶值和标准差，无法评价',
    'en-US': 'The QC material has no usable target mean and SD',
  },
  noRules: { 'zh-CN': '规则组合中没有启用的质控规则', 'en-US': 'The rule combination holds no enabled QC rule' },
} satisfies Record<string, Record<Locale, string>>;

interface Loaded {
  record(resource: string, id: unknown): Promise<StoredRecord | undefined>;
  screen(resource: string): ScreenSchema;
}

function loader(ctx: AppContext, tx: Queryable, orgId: number): Loaded {
  const screen = (resource: string) => {
    const s = ctx.screens.byResource(resource);
    if (!s) throw new Error(`screen of ${resource} is missing`);
    return s;
  };
  return {
    screen,
    record: (resource, id) =>
      typeof id === 'number' ? getRecord(tx, screen(resource), orgId, id) : Promise.resolve(undefined),
  };
}

/** Earlier results of the plan (newest first) and same-run results of other levels of the same item and instrument. */
async function neighbours(
  load: Loaded,
  tx: Queryable,
  orgId: number,
  result: StoredRecord,
  plan: StoredRecord,
  material: StoredRecord,
) {
  const results = load.screen('qcResult');
  const all = (params: Record<string, string>) =>
    listRecords(tx, results, orgId, { page: 1, size: 1000, params, sort: { field: 'runAt', order: 'desc' } }).then(
      (r) => r.records,
    );
  const target = async (r: StoredRecord) => {
    const p = await load.record('qcPlan', r.data.plan);
    const m = p && (await load.record('qcMaterial', p.data.material));
    return p && m ? { plan: p, material: m } : undefined;
  };
  const zOf = (r: StoredRecord, m: StoredRecord) =>
    zScore(Number(r.data.value), Number(m.data.targetMean), Number(m.data.targetSd));
  const previous = (await all({ plan: String(plan.id) }))
    .filter((r) => r.id !== result.id && String(r.data.runAt) < String(result.data.runAt))
    .map((r) => zOf(r, material));
  const sameRun: number[] = [];
  for (const r of await all({ runNo: String(result.data.runNo) })) {
    if (r.id === result.id || r.data.runNo !== result.data.runNo || r.data.plan === plan.id) continue;
    const other = await target(r);
    if (
      other &&
      other.plan.data.instrument === plan.data.instrument &&
      other.material.data.itemCode === material.data.itemCode
    )
      sameRun.push(zOf(r, other.material));
  }
  return { previous, sameRun };
}

/**
 * QC evaluation (spec 2.2 quality control; domain notes on Westgard rules): the result's z-score
 * against its lot's target, then every enabled rule of the plan's combination over this value, the
 * plan's earlier runs and the other levels of the same run. Writes zScore, violations and status.
 */
export async function qcRoutes(app: FastifyInstance, ctx: AppContext) {
  app.post<{ Params: { id: string } }>('/api/qc/results/:id/evaluate', async (request) => {
    const locale = request.locale;
    const row = await runRecordCommand(ctx, request, 'qcResult', 'qcEvaluate', async (tx, result, actor) => {
      const load = loader(ctx, tx, actor.orgId);
      const plan = await load.record('qcPlan', result.data.plan);
      if (!plan) refuse(locale, MESSAGES.noPlan, 'plan');
      const material = await load.record('qcMaterial', plan.data.material);
      const mean = Number(material?.data.targetMean);
      const sd = Number(material?.data.targetSd);
      if (!material || !Number.isFinite(mean) || !(sd > 0)) refuse(locale, MESSAGES.noTarget, 'plan');
      const combination = await load.record('qcRuleCombination', plan.data.ruleCombination);
      const ruleIds = Array.isArray(combination?.data.rules) ? combination.data.rules : [];
      const rules = (await Promise.all(ruleIds.map((id) => load.record('qcRule', id))))
        .filter((r): r is StoredRecord => r !== undefined && r.data.enabled !== false)
        .map((r) => r.data as unknown as QcRule);
      if (rules.length === 0) refuse(locale, MESSAGES.noRules, 'plan');
      const z = zScore(Number(result.data.value), mean, sd);
      const { previous, sameRun } = await neighbours(load, tx, actor.orgId, result, plan, material);
      const { violations, status } = evaluate(rules, { z, previous, sameRun });
      return { zScore: z, violations: violations.join(', '), status };
    });
    return ok(present(row));
  });
}

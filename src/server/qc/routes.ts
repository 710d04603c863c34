import type { FastifyInstance } from 'fastify';
import type { Locale } from '../../shared/i18n/messages.js';
import type { Kernel } from '../kernel/context.js';
import type { Queryable } from '../kernel/db/database.js';
import { ok } from '../kernel/http/envelope.js';
import { present } from '../kernel/resources/records.js';
import type { RecordStore, Stored } from '../kernel/resources/store.js';
import { refuse, runRecordCommand } from '../kernel/resources/commands.js';
import { evaluate, ruleOf, zScore, type QcRule } from './westgard.js';

const MESSAGES = {
  noPlan: { 'zh-CN': '质控计划不存在，无法评价', 'en-US': 'The QC plan of this result no longer exists' },
  noTarget: {
    'zh-CN': '质控品未设置有效的靶值和标准差，无法评价',
    'en-US': 'The QC material has no usable target mean and SD',
  },
  noRules: { 'zh-CN': '规则组合中没有启用的质控规则', 'en-US': 'The rule combination holds no enabled QC rule' },
} satisfies Record<string, Record<Locale, string>>;

type Result = Stored<'qcResult'>;
type Plan = Stored<'qcPlan'>;
type Material = Stored<'qcMaterial'>;

const zOf = (result: Result, material: Material) =>
  zScore(Number(result.data.value), Number(material.data.targetMean), Number(material.data.targetSd));

/** Earlier results of the plan (newest first) and same-run results of other levels of the same item and instrument. */
async function neighbours(
  records: RecordStore,
  tx: Queryable,
  orgId: number,
  result: Result,
  plan: Plan,
  material: Material,
) {
  const newestFirst = { orderBy: 'runAt', order: 'desc', limit: 1000 } as const;
  const previous = (await records.find(tx, 'qcResult', orgId, { plan: plan.id }, newestFirst))
    .filter((r) => r.id !== result.id && String(r.data.runAt) < String(result.data.runAt))
    .map((r) => zOf(r, material));
  const sameRun: number[] = [];
  for (const r of await records.find(tx, 'qcResult', orgId, { runNo: String(result.data.runNo) }, newestFirst)) {
    if (r.id === result.id || r.data.plan === plan.id) continue;
    const otherPlan = await records.get(tx, 'qcPlan', orgId, r.data.plan);
    const otherMaterial = otherPlan && (await records.get(tx, 'qcMaterial', orgId, otherPlan.data.material));
    if (!otherPlan || !otherMaterial) continue;
    const sameItem = otherMaterial.data.itemCode === material.data.itemCode;
    if (otherPlan.data.instrument === plan.data.instrument && sameItem) sameRun.push(zOf(r, otherMaterial));
  }
  return { previous, sameRun };
}

/**
 * QC evaluation (spec 2.2 quality control; domain notes on Westgard rules): the result's z-score
 * against its lot's target, then every enabled rule of the plan's combination over this value, the
 * plan's earlier runs and the other levels of the same run. Writes zScore, violations and status.
 */
export async function qcRoutes(app: FastifyInstance, ctx: Kernel) {
  const { records } = ctx;
  app.post<{ Params: { id: string } }>('/api/qc/results/:id/evaluate', async (request) => {
    const locale = request.locale;
    const row = await runRecordCommand(ctx, request, 'qcResult', 'qcEvaluate', async (tx, stored, actor) => {
      const result = (await records.get(tx, 'qcResult', actor.orgId, stored.id))!;
      const plan = await records.get(tx, 'qcPlan', actor.orgId, result.data.plan);
      if (!plan) refuse(locale, MESSAGES.noPlan, 'plan');
      const material = await records.get(tx, 'qcMaterial', actor.orgId, plan.data.material);
      const mean = Number(material?.data.targetMean);
      const sd = Number(material?.data.targetSd);
      if (!material || !Number.isFinite(mean) || !(sd > 0)) refuse(locale, MESSAGES.noTarget, 'plan');
      const combination = await records.get(tx, 'qcRuleCombination', actor.orgId, plan.data.ruleCombination);
      const rules = (await records.byIds(tx, 'qcRule', actor.orgId, combination?.data.rules ?? []))
        .filter((r) => r.data.enabled !== false)
        .map((r) => ruleOf(r.data))
        .filter((r): r is QcRule => r !== undefined);
      if (rules.length === 0) refuse(locale, MESSAGES.noRules, 'plan');
      const z = zScore(Number(result.data.value), mean, sd);
      const { previous, sameRun } = await neighbours(records, tx, actor.orgId, result, plan, material);
      const { violations, status } = evaluate(rules, { z, previous, sameRun });
      return { zScore: z, violations: violations.join(', '), status };
    });
    return ok(present(row));
  });
}

import type { QcResultRecord } from '../../shared/generated/resources.js';
import type { Kernel } from '../kernel/context.js';
import type { Queryable } from '../kernel/db/database.js';
import type { Stored } from '../kernel/resources/store.js';
import { evaluate, ruleOf, zScore, type QcRule } from './westgard.js';

type Plan = Stored<'qcPlan'>;
type Material = Stored<'qcMaterial'>;

/** A run as the series judges it: its id (0 for one being created), its values and what was derived from them. */
export interface Run {
  id: number;
  data: QcResultRecord;
}

export interface Target {
  mean: number;
  sd: number;
}

/** The fields the server derives on a run, never taken from input. */
export interface Judgement {
  targetMean: number | null;
  targetSd: number | null;
  zScore: number | null;
  violations: string;
  status: 'accept' | 'warning' | 'reject' | 'pending';
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * The target a run of the lot is judged against: the lot's own established target for runs after the
 * period it was established from (and for runs of that period when nothing was typed), else the
 * typed (manufacturer's) target; none while the lot has neither.
 */
export function targetOf(material: Material | undefined, runAt: string): Target | undefined {
  const m = material?.data;
  if (!m) return undefined;
  const typed = finite(m.targetMean) && finite(m.targetSd) && m.targetSd > 0;
  const established = finite(m.establishedMean) && finite(m.establishedSd) && m.establishedSd > 0;
  if (established && (!typed || runAt > String(m.establishedTo)))
    return { mean: m.establishedMean!, sd: m.establishedSd! };
  return typed ? { mean: m.targetMean!, sd: m.targetSd! } : undefined;
}

/** Run order: by run time, then as entered. */
export const inRunOrder = (a: Run, b: Run) =>
  String(a.data.runAt).localeCompare(String(b.data.runAt)) || (a.id || Infinity) - (b.id || Infinity);

/**
 * The QC series of one item on one instrument: every plan running a control of the item there (one
 * per level), their lots, rules and runs. Westgard rules look across the levels of a run and across
 * runs, so a run is always judged within this whole series.
 */
export class Series {
  private constructor(
    readonly plans: Map<number, Plan>,
    readonly materials: Map<number, Material>,
    private readonly rules: Map<number, QcRule[]>,
    readonly runs: Run[],
  ) {}

  static async of(kernel: Kernel, tx: Queryable, orgId: number, plan: Plan): Promise<Series> {
    const { records } = kernel;
    const own = await records.get(tx, 'qcMaterial', orgId, plan.data.material);
    const sameInstrument = await records.find(tx, 'qcPlan', orgId, { instrument: [String(plan.data.instrument)] });
    const planMaterials = await records.byIds(
      tx,
      'qcMaterial',
      orgId,
      sameInstrument.map((p) => p.data.material).filter((id): id is number => typeof id === 'number'),
    );
    const itemOf = new Map(planMaterials.map((m) => [m.id, m.data.itemCode]));
    const related = sameInstrument.filter(
      (p) => p.id === plan.id || (own && itemOf.get(Number(p.data.material)) === own.data.itemCode),
    );
    const plans = new Map(related.map((p) => [p.id, p]));
    const stored = await records.find(tx, 'qcResult', orgId, { plan: [...plans.keys()] });
    const lotIds = new Set([...planMaterials.map((m) => m.id), ...stored.map((r) => Number(r.data.material))]);
    const materials = new Map((await records.byIds(tx, 'qcMaterial', orgId, [...lotIds])).map((m) => [m.id, m]));
    const rules = new Map<number, QcRule[]>();
    for (const p of related) {
      const combination = await records.get(tx, 'qcRuleCombination', orgId, p.data.ruleCombination);
      const ofPlan = (await records.byIds(tx, 'qcRule', orgId, combination?.data.rules ?? []))
        .filter((r) => r.data.enabled !== false)
        .map((r) => ruleOf(r.data))
        .filter((r): r is QcRule => r !== undefined);
      rules.set(p.id, ofPlan);
    }
    const runs = stored.map((r) => ({ id: r.id, data: r.data })).sort(inRunOrder);
    return new Series(plans, materials, rules, runs);
  }

  /** Puts a run (new or edited) in its place in the series. */
  place(run: Run): void {
    const at = this.runs.findIndex((r) => run.id !== 0 && r.id === run.id);
    if (at >= 0) this.runs.splice(at, 1);
    this.runs.push(run);
    this.runs.sort(inRunOrder);
  }

  /** The lot a run of a plan was measured with: the one stamped on it, else the plan's own. */
  lotOf(run: Run): Material | undefined {
    const id = run.data.material ?? this.plans.get(Number(run.data.plan))?.data.material;
    return this.materials.get(Number(id));
  }

  /**
   * Judges a run against its lot's target and its plan's rules, over the other levels of its run and
   * the runs before it as the series holds them now (earlier runs judged first: their z-scores count).
   */
  judge(run: Run): Judgement {
    const target = targetOf(this.lotOf(run), String(run.data.runAt));
    const value = run.data.value;
    if (!target || !finite(value))
      return { targetMean: null, targetSd: null, zScore: null, violations: '', status: 'pending' };
    const z = zScore(value, target.mean, target.sd);
    const position = this.runs.indexOf(run);
    const before = (position >= 0 ? this.runs.slice(0, position) : this.runs.filter((r) => inRunOrder(r, run) < 0))
      .filter((r) => r !== run && r.data.runNo !== run.data.runNo && finite(r.data.zScore))
      .reverse();
    const sameRun = this.runs
      .filter((r) => r !== run && r.data.runNo === run.data.runNo && r.data.plan !== run.data.plan)
      .map((r) => r.data.zScore)
      .filter(finite);
    const { violations, status } = evaluate(this.rules.get(Number(run.data.plan)) ?? [], {
      z,
      previous: before.filter((r) => r.data.plan === run.data.plan).map((r) => r.data.zScore!),
      sameRun,
      earlierRunsAllLevels: before.map((r) => r.data.zScore!),
    });
    return { targetMean: target.mean, targetSd: target.sd, zScore: z, violations: violations.join(', '), status };
  }
}

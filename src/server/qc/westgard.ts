import type { QcRuleRecord } from '../../shared/generated/resources.js';

/**
 * Westgard multirule evaluation (domain notes, quality control). A rule is data, not code: a kind, a
 * limit in SDs and a count, as kept on the QC rules screen. Values are z-scores against the target of
 * the lot each value was measured with, so a series may run across a lot change.
 */
export type RuleKind = NonNullable<QcRuleRecord['ruleType']>;

/** A rule as evaluation needs it: the QC rules screen's record, its required fields present. */
export interface QcRule {
  code: string;
  ruleType: RuleKind;
  sdLimit?: number | null;
  count: number;
  acrossRuns?: boolean | null;
  severity: NonNullable<QcRuleRecord['severity']>;
}

/** The rule a stored record holds; undefined when a field evaluation needs is missing. */
export function ruleOf(record: QcRuleRecord): QcRule | undefined {
  const { code, ruleType, sdLimit, count, acrossRuns, severity } = record;
  if (!code || !ruleType || typeof count !== 'number' || !severity) return undefined;
  return { code, ruleType, sdLimit, count, acrossRuns, severity };
}

export interface QcPoint {
  /** z-score of the value being judged. */
  z: number;
  /** z-scores of the same control level's earlier runs (same plan), newest first. */
  previous: number[];
  /** z-scores of the other control levels measured in the same run (same item and instrument). */
  sameRun: number[];
  /**
   * z-scores of every level of the earlier runs of the item on the instrument, newest run first (the
   * levels of one run together): the "across runs and levels" series of Westgard's 4-1s and 10x.
   */
  earlierRunsAllLevels?: number[];
}

/** A run's status as the rules judge it. */
export type QcStatus = 'accept' | 'warning' | 'reject';

/** Every value beyond the limit on one side (strictly: a value exactly at the limit is not beyond it). */
const beyondSameSide = (values: number[], limit: number) =>
  values.every((v) => v > limit) || values.every((v) => v < -limit);

/** The judged value and the count − 1 values before it in the series all beyond the limit on one side. */
const consecutive = (z: number, before: number[], count: number, limit: number) =>
  before.length >= count - 1 && beyondSameSide([z, ...before.slice(0, count - 1)], limit);

/**
 * Within a run, across levels: the judged value and count − 1 of the other levels beyond the limit on
 * its side (two levels both above +2 SD break 2-2s within the run).
 */
const acrossLevels = (z: number, others: number[], count: number, limit: number) => {
  const side = z > limit ? 1 : z < -limit ? -1 : 0;
  if (side === 0) return false;
  return others.filter((v) => v * side > limit).length >= count - 1;
};

function broken(rule: QcRule, point: QcPoint): boolean {
  // sameSide rules (10x) count values on one side of the mean: a limit of 0.
  const limit = rule.ruleType === 'sameSide' ? 0 : (rule.sdLimit ?? 0);
  const { z, previous, sameRun } = point;
  switch (rule.ruleType) {
    case 'beyond':
      return Math.abs(z) > limit;
    case 'consecutiveBeyond':
    case 'sameSide': {
      if (rule.count <= 1) return Math.abs(z) > limit;
      if (acrossLevels(z, sameRun, rule.count, limit)) return true;
      if (!rule.acrossRuns) return false;
      // Across runs within the level, then across runs and levels (this run's levels first, newest first).
      if (consecutive(z, previous, rule.count, limit)) return true;
      const allLevels = [...sameRun, ...(point.earlierRunsAllLevels ?? [])];
      return sameRun.length > 0 && consecutive(z, allLevels, rule.count, limit);
    }
    case 'range': {
      // Westgard's R-4s: within the run, one level above +half the range and another below −half.
      const half = limit / 2;
      return sameRun.some((other) => (z > half && other < -half) || (z < -half && other > half));
    }
  }
}

export function evaluate(rules: QcRule[], point: QcPoint): { violations: string[]; status: QcStatus } {
  const hit = rules.filter((rule) => broken(rule, point));
  const status: QcStatus = hit.some((r) => r.severity === 'reject') ? 'reject' : hit.length > 0 ? 'warning' : 'accept';
  return { violations: hit.map((r) => r.code), status };
}

/** (value − mean) / SD to 4 decimals, the precision it is kept and judged at. */
export const zScore = (value: number, mean: number, sd: number) => Math.round(((value - mean) / sd) * 10_000) / 10_000;

/** Mean and sample SD (n − 1) of the runs a lot's target is established from, to 4 decimals. */
export function meanAndSd(values: readonly number[]): { mean: number; sd: number } {
  const n = values.length;
  const mean = values.reduce((s, v) => s + v, 0) / n;
  const variance = n > 1 ? values.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1) : 0;
  const round = (x: number) => Math.round(x * 10_000) / 10_000;
  return { mean: round(mean), sd: round(Math.sqrt(variance)) };
}

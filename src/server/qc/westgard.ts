import type { QcRuleRecord } from '../../shared/generated/resources.js';

/**
 * Westgard multirule evaluation (domain notes, quality control). A rule is data, not code: a kind, a
 * limit in SDs and a count, as kept on the QC rules screen. Values are z-scores against the lot's target.
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
  /** z-scores of the same plan's earlier runs, newest first. */
  previous: number[];
  /** z-scores of the other control levels measured in the same run. */
  sameRun: number[];
}

export type QcStatus = 'accept' | 'warning' | 'reject';

const beyondSameSide = (values: number[], limit: number) =>
  values.every((v) => v > limit) || values.every((v) => v < -limit);

function broken(rule: QcRule, point: QcPoint): boolean {
  const limit = rule.sdLimit ?? 0;
  const series = [point.z, ...(rule.acrossRuns ? point.previous : point.sameRun)];
  const last = series.slice(0, rule.count);
  switch (rule.ruleType) {
    case 'beyond':
      return Math.abs(point.z) > limit;
    case 'consecutiveBeyond':
      return last.length === rule.count && beyondSameSide(last, limit);
    case 'sameSide':
      return last.length === rule.count && beyondSameSide(last, 0);
    case 'range': {
      // The value judged must be one end of the range: one level above +limit/2, another below −limit/2.
      const half = limit / 2;
      return point.sameRun.some((other) => (point.z > half && other < -half) || (point.z < -half && other > half));
    }
  }
}

export function evaluate(rules: QcRule[], point: QcPoint): { violations: string[]; status: QcStatus } {
  const hit = rules.filter((rule) => broken(rule, point));
  const status: QcStatus = hit.some((r) => r.severity === 'reject') ? 'reject' : hit.length > 0 ? 'warning' : 'accept';
  return { violations: hit.map((r) => r.code), status };
}

export const zScore = (value: number, mean: number, sd: number) => Math.round(((value - mean) / sd) * 10_000) / 10_000;

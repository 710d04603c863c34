import { deltaExceeded } from './interpret.js';

/** A rule of 审核规则配置 (page 20217) as the server applies it to a result on entry. */
export interface AuditRule {
  code: string;
  name: string;
  ruleType: 'range' | 'critical' | 'delta' | 'logic';
  lower?: number | null;
  upper?: number | null;
  deltaPercent?: number | null;
  deltaDays?: number | null;
  action: 'hold' | 'warn' | 'autoVerify';
  message?: string | null;
}

/** What the rules are checked against: the value (undefined when not a number), its critical flag, the previous result. */
export interface Checked {
  value: number | undefined;
  critical: boolean;
  previous?: { value: number; at: Date };
  now: Date;
}

export interface Verdict {
  /** auto: approved by the system, naming `by`; hold: a person must review, named by `fired`; manual: the usual review. */
  kind: 'auto' | 'hold' | 'manual';
  fired: AuditRule[];
  by?: AuditRule;
}

/** Whether a rule's condition is met by the result (a logic rule needs a person: it always is). */
export function fires(rule: AuditRule, r: Checked): boolean {
  if (rule.ruleType === 'critical') return r.critical;
  if (rule.ruleType === 'logic') return true;
  if (r.value === undefined) return true;
  if (rule.ruleType === 'range')
    return (rule.lower != null && r.value < rule.lower) || (rule.upper != null && r.value > rule.upper);
  if (rule.deltaPercent == null) return false;
  return (
    deltaExceeded(r.value, r.previous, { deltaPercent: rule.deltaPercent, deltaDays: rule.deltaDays }, r.now) !==
    undefined
  );
}

/**
 * Auto-verification (domain: "Inspection and results"): a result is approved by the system when the
 * item has an auto-verify rule, none of its auto-verify rules fires and no hold rule fires; a hold rule
 * that fires keeps it for a person whatever else passes. A critical result is never auto-verified.
 */
export function verdictOf(rules: readonly AuditRule[], r: Checked): Verdict {
  const fired = rules.filter((rule) => fires(rule, r));
  if (fired.some((rule) => rule.action === 'hold')) return { kind: 'hold', fired };
  const auto = rules.filter((rule) => rule.action === 'autoVerify');
  if (r.critical || auto.length === 0 || auto.some((rule) => fired.includes(rule))) return { kind: 'manual', fired };
  return { kind: 'auto', fired, by: auto[0] };
}

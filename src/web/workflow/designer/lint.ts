import { Linter, type LintReport } from 'bpmnlint';
import noDisconnected from 'bpmnlint/rules/no-disconnected';
import startEventRequired from 'bpmnlint/rules/start-event-required';
import endEventRequired from 'bpmnlint/rules/end-event-required';
import singleBlankStartEvent from 'bpmnlint/rules/single-blank-start-event';
import conditionalFlows from 'bpmnlint/rules/conditional-flows';
import noComplexGateway from 'bpmnlint/rules/no-complex-gateway';
import singleEventDefinition from 'bpmnlint/rules/single-event-definition';
import { checkExpression } from '../../../shared/expression';
import { labRuleBreaks, type LabAttribute, type LabRule, type RuleNode } from '../../../shared/workflow/labRules';
import { wt, type Zh } from '../i18n';
import { linkFlows } from './foreign';

/**
 * Live checks of the designer (issue 4): the structural bpmnlint rules the engine applies again before
 * deploying, and the lab's own (shared/workflow/labRules.ts), which deploy applies to every model this
 * designer saved: a user task needs a form and positions, every condition parses, a gateway with
 * several conditional ways out has its flows ordered.
 */
interface Node {
  id: string;
  $type: string;
  get?(name: string): unknown;
  outgoing?: Node[];
  conditionExpression?: { body?: string };
}
type Reporter = { report(id: string, message: string): void };

const ourRule = (check: (node: Node, reporter: Reporter) => void) => () => ({ check });

/** Our attributes are read through the designer's moddle: flow order is ours (lims:), the rest Activiti's. */
const read = (node: RuleNode, name: LabAttribute) => {
  const value = (node as Node).get?.(`${name === 'sequenceFlowOrder' ? 'lims' : 'activiti'}:${name}`);
  return value === undefined || value === null ? undefined : String(value);
};

const LAB_RULE_TEXT: Record<LabRule, Zh> = {
  'user-task-form': '用户任务未设置表单(formKey)',
  'user-task-groups': '用户任务未设置岗位(candidateGroups)',
  'gateway-flow-order': '网关的连线未排序（无连线顺序设置）',
};

/** Elements imported from another tool, spared the lab's rules (set for each run of lintDiagram). */
let spared: ReadonlySet<string> = new Set();

const labRules = ourRule((node, reporter) => {
  if (spared.has(node.id)) return;
  for (const rule of labRuleBreaks(node, read)) reporter.report(node.id, wt(LAB_RULE_TEXT[rule]));
});

const conditionsParse = ourRule((node, reporter) => {
  const body = node.$type === 'bpmn:SequenceFlow' ? node.conditionExpression?.body : undefined;
  const problem = body ? checkExpression(body) : undefined;
  if (problem) reporter.report(node.id, `${wt('跳转条件无法解析')}：${problem}`);
});

const RULES: Record<string, unknown> = {
  'no-disconnected': noDisconnected,
  'start-event-required': startEventRequired,
  'end-event-required': endEventRequired,
  'single-blank-start-event': singleBlankStartEvent,
  'conditional-flows': conditionalFlows,
  'no-complex-gateway': noComplexGateway,
  'single-event-definition': singleEventDefinition,
  'lab-rules': labRules,
  'conditions-parse': conditionsParse,
};

export interface LintIssue {
  id: string;
  message: string;
  rule: string;
}

/** A fresh linter each time: some bpmnlint rules remember what they saw. */
export async function lintDiagram(definitions: unknown, exempt: ReadonlySet<string> = new Set()): Promise<LintIssue[]> {
  // As the server does before deploying: links a file left out are rebuilt from the flows.
  for (const root of (definitions as { rootElements?: Parameters<typeof linkFlows>[0][] }).rootElements ?? [])
    linkFlows(root);
  spared = exempt;
  const linter = new Linter({
    config: { rules: Object.fromEntries(Object.keys(RULES).map((r) => [r, 'error'])) },
    resolver: {
      resolveRule: (_pkg: string, name: string) => RULES[name],
      resolveConfig: () => {
        throw new Error('no shared configs');
      },
    },
  });
  const reports = await linter.lint(definitions);
  return Object.entries(reports).flatMap(([rule, list]: [string, LintReport[]]) =>
    list.map((r) => ({ id: r.id ?? '', message: r.message, rule })),
  );
}

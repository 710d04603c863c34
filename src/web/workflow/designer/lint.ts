import { Linter, type LintReport } from 'bpmnlint';
import noDisconnected from 'bpmnlint/rules/no-disconnected';
import noDuplicateSequenceFlows from 'bpmnlint/rules/no-duplicate-sequence-flows';
import startEventRequired from 'bpmnlint/rules/start-event-required';
import endEventRequired from 'bpmnlint/rules/end-event-required';
import singleBlankStartEvent from 'bpmnlint/rules/single-blank-start-event';
import conditionalFlows from 'bpmnlint/rules/conditional-flows';
import noComplexGateway from 'bpmnlint/rules/no-complex-gateway';
import { checkExpression } from '../../../shared/expression';
import { wt } from '../i18n';

/**
 * Live checks of the designer (issue 4): the structural bpmnlint rules the engine applies again before
 * deploying, and the lab's own: a user task needs a form and positions, every condition parses, a
 * gateway with several ways out has its flows ordered.
 */
interface Node {
  id: string;
  $type: string;
  get?(name: string): unknown;
  outgoing?: Node[];
  conditionExpression?: { body?: string };
}
type Reporter = { report(id: string, message: string): void };

const prop = (node: Node, name: string) => String(node.get?.(name) ?? '');

const ourRule = (check: (node: Node, reporter: Reporter) => void) => () => ({ check });

const userTaskNeedsFormAndGroups = ourRule((node, reporter) => {
  if (node.$type !== 'bpmn:UserTask') return;
  if (!prop(node, 'activiti:formKey')) reporter.report(node.id, wt('用户任务未设置表单(formKey)'));
  if (!prop(node, 'activiti:candidateGroups'))
    reporter.report(node.id, wt('用户任务未设置岗位(candidateGroups)'));
});

const conditionsParse = ourRule((node, reporter) => {
  const body = node.$type === 'bpmn:SequenceFlow' ? node.conditionExpression?.body : undefined;
  const problem = body ? checkExpression(body) : undefined;
  if (problem) reporter.report(node.id, `${wt('跳转条件无法解析')}：${problem}`);
});

const gatewaysOrdered = ourRule((node, reporter) => {
  if (!/Gateway$/.test(node.$type) || (node.outgoing?.length ?? 0) < 2) return;
  const order = prop(node, 'lims:sequenceFlowOrder').split(',');
  if (!node.outgoing!.every((f) => order.includes(f.id)))
    reporter.report(node.id, wt('网关的连线未排序（无连线顺序设置）'));
});

const RULES: Record<string, unknown> = {
  'no-disconnected': noDisconnected,
  'no-duplicate-sequence-flows': noDuplicateSequenceFlows,
  'start-event-required': startEventRequired,
  'end-event-required': endEventRequired,
  'single-blank-start-event': singleBlankStartEvent,
  'conditional-flows': conditionalFlows,
  'no-complex-gateway': noComplexGateway,
  'user-task-form-groups': userTaskNeedsFormAndGroups,
  'conditions-parse': conditionsParse,
  'gateways-ordered': gatewaysOrdered,
};

export interface LintIssue {
  id: string;
  message: string;
  rule: string;
}

/** A fresh linter each time: some bpmnlint rules remember what they saw. */
export async function lintDiagram(definitions: unknown): Promise<LintIssue[]> {
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

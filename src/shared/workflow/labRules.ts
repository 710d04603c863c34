/**
 * The lab's own rules for a process model (issue 4), beside bpmnlint's structural ones: a user task
 * needs a form and positions, and a gateway with several conditional ways out says in which order they
 * are tried. The designer's live check and the deploy check both call labRuleBreaks, so what the
 * designer lists is what deploying refuses.
 *
 * Deploy holds only models saved by our designer to them (definitions exporter = DESIGNER_EXPORTER).
 * Models from elsewhere are Activiti's to define, and Activiti runs them: a task without candidates is
 * worked by the organisation's admins (engine/service.ts), a task without formKey shows no form, an
 * exclusive gateway without our flow order tries its flows in document order. The Activiti fixtures and
 * hand-written lab models rely on exactly that, so refusing them would break models that run.
 */
export const DESIGNER_EXPORTER = 'LIMS designer';

export type LabRule = 'user-task-form' | 'user-task-groups' | 'gateway-flow-order';

/** The few attributes the rules read; each side reads them from its own moddle (the names are Activiti's and ours). */
export type LabAttribute = 'formKey' | 'candidateGroups' | 'sequenceFlowOrder';

export interface RuleNode {
  id?: string;
  $type: string;
  outgoing?: RuleNode[];
  conditionExpression?: unknown;
  sourceRef?: unknown;
  $parent?: { flowElements?: RuleNode[] };
}

/**
 * The flows leaving a node. Activiti files often leave out <outgoing>, so the flows of the same scope
 * whose source is the node count as well.
 */
function outgoingOf(node: RuleNode): RuleNode[] {
  const siblings = (node.$parent?.flowElements ?? []).filter(
    (f) => f.$type === 'bpmn:SequenceFlow' && f.sourceRef === node,
  );
  return [...new Set([...(node.outgoing ?? []), ...siblings])];
}

/** A comma list as Activiti writes one (candidateGroups, sequenceFlowOrder): trimmed, no empty entries. */
export const splitList = (text: string | undefined): string[] =>
  (text ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** The lab rules one element breaks, in a fixed order; empty for elements the rules do not concern. */
export function labRuleBreaks(
  node: RuleNode,
  read: (node: RuleNode, name: LabAttribute) => string | undefined,
): LabRule[] {
  const breaks: LabRule[] = [];
  if (node.$type === 'bpmn:UserTask') {
    if (!read(node, 'formKey')?.trim()) breaks.push('user-task-form');
    if (splitList(read(node, 'candidateGroups')).length === 0) breaks.push('user-task-groups');
  }
  if (/Gateway$/.test(node.$type)) {
    // Only conditions compete: a default flow is taken last whatever the order, a lone condition has no rival.
    const conditional = outgoingOf(node).filter((f) => f.conditionExpression);
    const order = splitList(read(node, 'sequenceFlowOrder'));
    if (conditional.length > 1 && !conditional.every((f) => f.id && order.includes(f.id)))
      breaks.push('gateway-flow-order');
  }
  return breaks;
}

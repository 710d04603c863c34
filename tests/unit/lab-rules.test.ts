import { describe, expect, it } from 'vitest';
import { labRuleBreaks, splitList, type LabAttribute, type RuleNode } from '../../src/shared/workflow/labRules';

/**
 * The lab's own rules for a process model (issue 4): a user task needs a form and positions, a gateway
 * with several conditional ways out says in which order they are tried. The designer's live check and
 * the deploy check both ask labRuleBreaks, so these cases are what both show and refuse.
 */
type Attributes = Partial<Record<LabAttribute, string>>;
type Node = RuleNode & { attributes?: Attributes };

const read = (node: RuleNode, name: LabAttribute) => (node as Node).attributes?.[name];
const breaks = (node: Node) => labRuleBreaks(node, read);

const userTask = (attributes: Attributes): Node => ({ id: 'task', $type: 'bpmn:UserTask', attributes });
const flow = (id: string | undefined, condition?: string): Node => ({
  id,
  $type: 'bpmn:SequenceFlow',
  conditionExpression: condition && { body: condition },
});
const gateway = (outgoing: Node[], order?: string, $type = 'bpmn:ExclusiveGateway'): Node => ({
  id: 'gateway',
  $type,
  outgoing,
  attributes: order === undefined ? {} : { sequenceFlowOrder: order },
});

describe('a user task', () => {
  it('with a form and a position breaks no rule', () => {
    expect(breaks(userTask({ formKey: '12', candidateGroups: '3' }))).toEqual([]);
    expect(breaks(userTask({ formKey: '12', candidateGroups: '3, 4' }))).toEqual([]);
  });

  it.each<[string, Attributes]>([
    ['no formKey', { candidateGroups: '3' }],
    ['an empty formKey', { formKey: '', candidateGroups: '3' }],
    ['a formKey of spaces', { formKey: '  ', candidateGroups: '3' }],
  ])('needs a form: %s', (_, attributes) => {
    expect(breaks(userTask(attributes))).toEqual(['user-task-form']);
  });

  it.each<[string, Attributes]>([
    ['no candidateGroups', { formKey: '12' }],
    ['an empty list', { formKey: '12', candidateGroups: '' }],
    ['only commas and spaces', { formKey: '12', candidateGroups: ' , ,' }],
  ])('needs a position: %s', (_, attributes) => {
    expect(breaks(userTask(attributes))).toEqual(['user-task-groups']);
  });

  it('without either breaks both, form first', () => {
    expect(breaks(userTask({}))).toEqual(['user-task-form', 'user-task-groups']);
  });

  it('is the only kind of task the rules concern', () => {
    expect(breaks({ id: 'service', $type: 'bpmn:ServiceTask', attributes: {} })).toEqual([]);
    expect(breaks({ id: 'plain', $type: 'bpmn:Task', attributes: {} })).toEqual([]);
    expect(breaks({ id: 'start', $type: 'bpmn:StartEvent', attributes: {} })).toEqual([]);
  });
});

describe('a gateway with conditional ways out', () => {
  const large = flow('toLarge', '${size >= 3}');
  const small = flow('toSmall', '${size > 0}');
  const none = flow('toNone');

  it('with two conditions needs an order naming both', () => {
    expect(breaks(gateway([large, small]))).toEqual(['gateway-flow-order']);
    expect(breaks(gateway([large, small], ''))).toEqual(['gateway-flow-order']);
    expect(breaks(gateway([large, small], 'toLarge'))).toEqual(['gateway-flow-order']);
    expect(breaks(gateway([large, small], 'toLarge,toSmall'))).toEqual([]);
    expect(breaks(gateway([large, small], ' toSmall , toLarge '))).toEqual([]);
  });

  it('does not need the default flow (no condition) in the order: it is taken last anyway', () => {
    expect(breaks(gateway([large, small, none], 'toSmall,toLarge'))).toEqual([]);
  });

  it('with one condition has nothing to order', () => {
    expect(breaks(gateway([large, none]))).toEqual([]);
    expect(breaks(gateway([none]))).toEqual([]);
    expect(breaks(gateway([]))).toEqual([]);
  });

  it('refuses an order that names other flows only', () => {
    expect(breaks(gateway([large, small], 'toNone,elsewhere'))).toEqual(['gateway-flow-order']);
  });

  it('cannot order a conditional flow without an id', () => {
    expect(breaks(gateway([large, flow(undefined, '${x}')], 'toLarge'))).toEqual(['gateway-flow-order']);
  });

  it('applies to every kind of gateway', () => {
    expect(breaks(gateway([large, small], undefined, 'bpmn:InclusiveGateway'))).toEqual(['gateway-flow-order']);
    expect(breaks(gateway([large, small], undefined, 'bpmn:ParallelGateway'))).toEqual(['gateway-flow-order']);
  });

  it('counts the flows of the same scope whose source is the gateway when <outgoing> is left out (Activiti files)', () => {
    const node: Node = { id: 'gateway', $type: 'bpmn:ExclusiveGateway', attributes: {} };
    const scope = {
      flowElements: [node, { ...large, sourceRef: node }, { ...small, sourceRef: node }, flow('other', '${y}')],
    };
    node.$parent = scope;
    expect(breaks(node)).toEqual(['gateway-flow-order']);
    node.attributes = { sequenceFlowOrder: 'toLarge,toSmall' };
    expect(breaks(node)).toEqual([]);
  });

  it('counts a flow named both in <outgoing> and in the scope once', () => {
    const node: Node = { id: 'gateway', $type: 'bpmn:ExclusiveGateway', attributes: {} };
    const only = { ...large, sourceRef: node };
    node.outgoing = [only];
    node.$parent = { flowElements: [node, only] };
    expect(breaks(node)).toEqual([]);
  });
});

describe('a comma list as Activiti writes one', () => {
  it('is trimmed and has no empty entries', () => {
    expect(splitList(' a, b ,,c ,')).toEqual(['a', 'b', 'c']);
    expect(splitList('')).toEqual([]);
    expect(splitList(undefined)).toEqual([]);
  });
});

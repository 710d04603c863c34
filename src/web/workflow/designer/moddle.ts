/**
 * Moddle descriptors so bpmn-js reads and writes Activiti's attributes as named properties
 * (xmlns:activiti="http://activiti.org/bpmn"), and ours that Activiti does not know (flow order of a
 * gateway, the form ids of a flow's conditions) in a namespace of our own. Attributes neither knows
 * stay on the element as they came (bpmn-moddle keeps unknown attributes), so foreign files round-trip.
 *
 * Elements are stricter than attributes: once a namespace has a descriptor, moddle-xml drops every
 * element of it the descriptor does not define (with an import warning), and the next save loses it.
 * So every extension element of Activiti's schema is defined below, modelled on Activiti's XML
 * converter (BpmnXMLConstants). An Activiti element still missing here is dropped the same way, the
 * rest of the file imports and saves. Elements of namespaces without a descriptor (flowable:, ...) are
 * kept as generic elements and need nothing here.
 */
import { DESIGNER_EXPORTER } from '../../../shared/workflow/labRules';

const attr = (name: string, type = 'String') => ({ name, isAttr: true, type });
/** A child element (<activiti:string> of a field), or a list of them (<activiti:field>s of a listener). */
const child = (name: string, type: string) => ({ name, type });
const children = (name: string, type: string) => ({ name, type, isMany: true });
/**
 * A BPMN-namespaced child written as Activiti reads it. bpmn:ResourceAssignmentExpression would write
 * its <formalExpression> as <expression xsi:type="tFormalExpression">, which Activiti's parser skips.
 */
const bpmnChild = (name: string, type: string) => ({
  name: `bpmn:${name}`,
  type,
  xml: { serialize: 'property' },
});
/** The element's text, e.g. the timer cycle of <activiti:failedJobRetryTimeCycle>R5/PT7M</…>. */
const body = (name = 'body') => ({ name, type: 'String', isBody: true });
/** An extension element: a child of <extensionElements>, which holds only subtypes of Element. */
const extension = (name: string, allowedIn: string[], properties: object[]) => ({
  name,
  superClass: ['Element'],
  meta: { allowedIn },
  properties,
});

/** What a listener runs, as Activiti reads it (one of class / expression / delegateExpression), and its fields. */
const listenerProperties = () => [
  attr('event'),
  attr('class'),
  attr('expression'),
  attr('delegateExpression'),
  attr('onTransaction'),
  attr('customPropertiesResolverClass'),
  attr('customPropertiesResolverExpression'),
  attr('customPropertiesResolverDelegateExpression'),
  children('fields', 'Field'),
];

/** <activiti:in>/<activiti:out> of a call activity: which variable goes to / comes back from the called process. */
const ioParameter = () => [attr('source'), attr('sourceExpression'), attr('target')];

/** Attributes Activiti puts on BPMN elements. */
const attributeTypes = [
  {
    name: 'ProcessProps',
    isAbstract: true,
    extends: ['bpmn:Process'],
    properties: [attr('candidateStarterGroups'), attr('candidateStarterUsers'), attr('versionTag')],
  },
  {
    name: 'StartProps',
    isAbstract: true,
    extends: ['bpmn:StartEvent'],
    properties: [attr('formKey'), attr('initiator')],
  },
  {
    name: 'UserTaskProps',
    isAbstract: true,
    extends: ['bpmn:UserTask'],
    properties: [
      attr('formKey'),
      attr('candidateGroups'),
      attr('candidateUsers'),
      attr('assignee'),
      attr('owner'),
      attr('priority'),
      attr('dueDate'),
      attr('category'),
      attr('skipExpression'),
    ],
  },
  {
    name: 'AsyncProps',
    isAbstract: true,
    extends: ['bpmn:FlowNode'],
    properties: [attr('async'), attr('exclusive')],
  },
  {
    // Java delegates of service and send tasks (type: mail, shell, ... for Activiti's built-in ones).
    name: 'DelegateTaskProps',
    isAbstract: true,
    extends: ['bpmn:ServiceTask', 'bpmn:SendTask'],
    properties: [
      attr('class'),
      attr('expression'),
      attr('delegateExpression'),
      attr('resultVariableName'),
      attr('type'),
      attr('skipExpression'),
    ],
  },
  {
    name: 'ScriptTaskProps',
    isAbstract: true,
    extends: ['bpmn:ScriptTask'],
    properties: [attr('resultVariable'), attr('autoStoreVariables')],
  },
  {
    name: 'CallActivityProps',
    isAbstract: true,
    extends: ['bpmn:CallActivity'],
    properties: [attr('businessKey'), attr('inheritBusinessKey'), attr('inheritVariables')],
  },
  {
    name: 'MultiInstanceProps',
    isAbstract: true,
    extends: ['bpmn:MultiInstanceLoopCharacteristics'],
    properties: [attr('collection'), attr('elementVariable')],
  },
];

/** Activiti's elements inside <extensionElements> and their children. */
const elementTypes = [
  // <activiti:executionListener event="start" class="…"/> (the listener tab) and on tasks, events, flows.
  extension('ExecutionListener', ['bpmn:Process', 'bpmn:FlowNode', 'bpmn:SequenceFlow'], listenerProperties()),
  extension('TaskListener', ['bpmn:UserTask'], listenerProperties()),
  // Process-wide engine events (Activiti 5.15+).
  extension(
    'EventListener',
    ['bpmn:Process'],
    [
      attr('events'),
      attr('entityType'),
      attr('class'),
      attr('delegateExpression'),
      attr('throwEvent'),
      attr('signalName'),
      attr('messageName'),
      attr('errorCode'),
    ],
  ),
  extension(
    'FormProperty',
    ['bpmn:StartEvent', 'bpmn:UserTask'],
    [
      attr('id'),
      attr('name'),
      attr('type'),
      attr('expression'),
      attr('variable'),
      attr('default'),
      attr('datePattern'),
      attr('readable'),
      attr('writable'),
      attr('required'),
      children('values', 'Value'),
    ],
  ),
  // An enum choice of a form property (<activiti:value id name/>), or a data object's value (text).
  extension('Value', ['activiti:FormProperty', 'bpmn:DataObject'], [attr('id'), attr('name'), body('value')]),
  // A field injected into a delegate: the value as an attribute or as a child element, either in text or as an expression.
  extension(
    'Field',
    ['bpmn:ServiceTask', 'bpmn:SendTask', 'activiti:ExecutionListener', 'activiti:TaskListener'],
    [
      attr('name'),
      attr('stringValue'),
      attr('expression'),
      // <activiti:string>: a simple child, written back as <activiti:string>.
      child('string', 'String'),
      // <activiti:expression> shares its name with the attribute, so it is a typed child under another name.
      child('expressionElement', 'Expression'),
    ],
  ),
  { name: 'Expression', properties: [body()] },
  extension('In', ['bpmn:CallActivity'], ioParameter()),
  extension('Out', ['bpmn:CallActivity'], ioParameter()),
  extension(
    'PotentialStarter',
    ['bpmn:Process'],
    [bpmnChild('resourceAssignmentExpression', 'activiti:StarterAssignment')],
  ),
  { name: 'StarterAssignment', properties: [bpmnChild('formalExpression', 'String')] },
  extension('FailedJobRetryTimeCycle', ['bpmn:Activity', 'bpmn:Event'], [body()]),
  // <activiti:mapException errorCode="…" includeChildExceptions="true">java.lang.Exception</…>
  extension(
    'MapException',
    ['bpmn:ServiceTask', 'bpmn:SendTask'],
    [attr('errorCode'), attr('includeChildExceptions'), body('className')],
  ),
];

export const activitiDescriptor = {
  name: 'Activiti',
  uri: 'http://activiti.org/bpmn',
  prefix: 'activiti',
  xml: { tagAlias: 'lowerCase' },
  associations: [],
  types: [...attributeTypes, ...elementTypes],
};

export const LIMS_NS = 'http://lims.local/schema/bpmn';

export const limsDescriptor = {
  name: 'Lims',
  uri: LIMS_NS,
  prefix: 'lims',
  xml: { tagAlias: 'lowerCase' },
  associations: [],
  types: [
    {
      name: 'GatewayProps',
      isAbstract: true,
      extends: ['bpmn:ExclusiveGateway', 'bpmn:InclusiveGateway', 'bpmn:ParallelGateway', 'bpmn:ComplexGateway'],
      properties: [attr('sequenceFlowOrder')],
    },
    { name: 'FlowProps', isAbstract: true, extends: ['bpmn:SequenceFlow'], properties: [attr('formId')] },
    { name: 'UserTaskProps', isAbstract: true, extends: ['bpmn:UserTask'], properties: [attr('specimenStep')] },
  ],
};

export const moddleExtensions = { activiti: activitiDescriptor, lims: limsDescriptor };

/**
 * Marks definitions as saved by this designer (BPMN's own exporter attribute): deploy then holds the
 * model to the lab rules the designer's live check shows (shared/workflow/labRules.ts).
 */
export function stampDesigner(definitions: { exporter?: string }): void {
  definitions.exporter = DESIGNER_EXPORTER;
}

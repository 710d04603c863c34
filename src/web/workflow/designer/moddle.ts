/**
 * Moddle descriptors so bpmn-js reads and writes Activiti's attributes as named properties
 * (xmlns:activiti="http://activiti.org/bpmn"), and ours that Activiti does not know (flow order of a
 * gateway, the form ids of a flow's conditions) in a namespace of our own. Attributes neither knows
 * stay on the element as they came (bpmn-moddle keeps unknown attributes), so foreign files round-trip.
 */
import { DESIGNER_EXPORTER } from '../../../shared/workflow/labRules';

const attr = (name: string, type = 'String') => ({ name, isAttr: true, type });

export const activitiDescriptor = {
  name: 'Activiti',
  uri: 'http://activiti.org/bpmn',
  prefix: 'activiti',
  xml: { tagAlias: 'lowerCase' },
  associations: [],
  types: [
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
        attr('priority'),
        attr('dueDate'),
      ],
    },
    {
      // <activiti:executionListener event="start" class="…"/> inside extensionElements (the listener tab).
      name: 'ExecutionListener',
      superClass: ['Element'],
      meta: { allowedIn: ['bpmn:Process', 'bpmn:FlowNode', 'bpmn:SequenceFlow'] },
      properties: [attr('event'), attr('class'), attr('expression'), attr('delegateExpression')],
    },
    {
      name: 'MultiInstanceProps',
      isAbstract: true,
      extends: ['bpmn:MultiInstanceLoopCharacteristics'],
      properties: [attr('collection'), attr('elementVariable')],
    },
  ],
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
      extends: [
        'bpmn:ExclusiveGateway',
        'bpmn:InclusiveGateway',
        'bpmn:ParallelGateway',
        'bpmn:ComplexGateway',
      ],
      properties: [attr('sequenceFlowOrder')],
    },
    { name: 'FlowProps', isAbstract: true, extends: ['bpmn:SequenceFlow'], properties: [attr('formId')] },
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

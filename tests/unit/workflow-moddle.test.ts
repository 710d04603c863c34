import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { moddleExtensions, stampDesigner } from '../../src/web/workflow/designer/moddle';
import { lintDiagram } from '../../src/web/workflow/designer/lint';
import { modelProblems, readModel } from '../../src/server/workflow/engine/validate';
import { passWeightCondition, passWeightOf, parseExpression } from '../../src/shared/expression/conditions';

interface El {
  id: string;
  $type: string;
  $attrs: Record<string, string>;
  get(name: string): unknown;
  set(name: string, value: unknown): void;
  flowElements?: El[];
  rootElements?: El[];
  loopCharacteristics?: El & { isSequential?: boolean; completionCondition?: { body: string } };
  conditionExpression?: { body: string };
}
type Moddle = {
  fromXML(xml: string, type: string): Promise<{ rootElement: El; warnings: unknown[] }>;
  toXML(el: El, o?: object): Promise<{ xml: string }>;
};
// The designer's own moddle: bpmn-moddle with the Activiti and LIMS descriptors, as bpmn-js builds it.
const BpmnModdle = createRequire(import.meta.url)('bpmn-moddle') as new (ext: object) => Moddle;
const moddle = new BpmnModdle(moddleExtensions);

const ACTIVITI = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xmlns:activiti="http://activiti.org/bpmn" xmlns:lims="http://lims.local/schema/bpmn" xmlns:flowable="http://flowable.org/bpmn"
  targetNamespace="http://www.activiti.org/processdef">
  <process id="ihc" name="免疫组化" isExecutable="true" activiti:candidateStarterGroups="1001,1002" activiti:candidateStarterUsers="admin">
    <startEvent id="start" name="开始" activiti:initiator="applicant"/>
    <userTask id="stain" name="染色" activiti:formKey="12" activiti:candidateGroups="1001" activiti:priority="80" flowable:dueDate="P1D">
      <multiInstanceLoopCharacteristics isSequential="false" activiti:collection="\${assigneeList}" activiti:elementVariable="assignee">
        <completionCondition>${passWeightCondition(60)}</completionCondition>
      </multiInstanceLoopCharacteristics>
    </userTask>
    <exclusiveGateway id="gw" name="判读" lims:sequenceFlowOrder="ok,redo"/>
    <endEvent id="end" name="完成"/>
    <sequenceFlow id="f1" sourceRef="start" targetRef="stain"/>
    <sequenceFlow id="f2" sourceRef="stain" targetRef="gw"/>
    <sequenceFlow id="ok" sourceRef="gw" targetRef="end" lims:formId="12,A99999"><conditionExpression xsi:type="tFormalExpression"><![CDATA[\${result == 'pass' && score >= 2}]]></conditionExpression></sequenceFlow>
    <sequenceFlow id="redo" sourceRef="gw" targetRef="stain"><conditionExpression xsi:type="tFormalExpression"><![CDATA[\${result != 'pass'}]]></conditionExpression></sequenceFlow>
  </process>
</definitions>`;

const processOf = (root: El) => root.rootElements!.find((e) => e.$type === 'bpmn:Process')!;
const byId = (p: El, id: string) => p.flowElements!.find((e) => e.id === id)!;

describe('Activiti XML through the designer moddle (issue 4)', () => {
  it('reads and writes Activiti and LIMS attributes, multi-instance and conditions, and keeps unknown ones', async () => {
    const first = await moddle.fromXML(ACTIVITI, 'bpmn:Definitions');
    expect(first.warnings).toEqual([]);
    const { xml } = await moddle.toXML(first.rootElement, { format: true });
    const again = processOf((await moddle.fromXML(xml, 'bpmn:Definitions')).rootElement);

    expect(again.get('activiti:candidateStarterGroups')).toBe('1001,1002');
    expect(again.get('activiti:candidateStarterUsers')).toBe('admin');
    const task = byId(again, 'stain');
    expect([
      task.get('activiti:formKey'),
      task.get('activiti:candidateGroups'),
      task.get('activiti:priority'),
    ]).toEqual(['12', '1001', '80']);
    expect(task.$attrs['flowable:dueDate']).toBe('P1D');
    const loop = task.loopCharacteristics!;
    expect(loop.isSequential).toBe(false);
    expect([loop.get('activiti:collection'), loop.get('activiti:elementVariable')]).toEqual([
      '${assigneeList}',
      'assignee',
    ]);
    expect(passWeightOf(loop.completionCondition!.body)).toBe(60);
    expect(byId(again, 'start').get('activiti:initiator')).toBe('applicant');
    expect(byId(again, 'gw').get('lims:sequenceFlowOrder')).toBe('ok,redo');
    const ok = byId(again, 'ok');
    expect(ok.get('lims:formId')).toBe('12,A99999');
    const rows = parseExpression(ok.conditionExpression!.body, String(ok.get('lims:formId')))!;
    expect(rows.map((r) => [r.formId, r.variable, r.conditionalOpt, r.conditionalVal, r.logic])).toEqual([
      ['12', 'result', '==', 'pass', '&&'],
      ['A99999', 'score', '>=', '2', ''],
    ]);
    expect(xml).toContain('xmlns:activiti="http://activiti.org/bpmn"');
  });
});

describe('copy flowchart (spec 2.4)', () => {
  it("gives the copied diagram the target model's process id and name, and keeps the rest", async () => {
    const { retargetDiagram } = await import('../../src/web/workflow/copyDiagram');
    // happy-dom's XML parser rejects CDATA sections (Chromium does not), so the conditions are escaped here.
    const plain = ACTIVITI.replace(/<!\[CDATA\[(.*?)\]\]>/g, (_, body: string) =>
      body.replace(/&/g, '&amp;'),
    );
    const withPlane = plain.replace(
      '</definitions>',
      '<bpmndi:BPMNDiagram xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" id="d"><bpmndi:BPMNPlane id="p" bpmnElement="ihc"/></bpmndi:BPMNDiagram></definitions>',
    );
    const copied = await moddle.fromXML(retargetDiagram(withPlane, 'he_stain', 'HE染色'), 'bpmn:Definitions');
    const process = processOf(copied.rootElement);
    expect([process.id, (process as El & { name: string }).name]).toEqual(['he_stain', 'HE染色']);
    expect(byId(process, 'stain').get('activiti:candidateGroups')).toBe('1001');
    const diagram = (copied.rootElement as El & { diagrams: { plane: { bpmnElement: { id: string } } }[] })
      .diagrams[0]!;
    expect(diagram.plane.bpmnElement.id).toBe('he_stain');
  });
});

describe("lab rules: the designer's live check and deploy agree (issue 4)", () => {
  it('refuses at deploy what the designer lists, for diagrams the designer saved only', async () => {
    const { rootElement } = await moddle.fromXML(ACTIVITI, 'bpmn:Definitions');
    const p = processOf(rootElement);
    // The task loses its positions; the gateway's order names only one of its two conditional flows.
    byId(p, 'stain').set('activiti:candidateGroups', undefined);
    byId(p, 'gw').set('lims:sequenceFlowOrder', 'ok');

    const live = await lintDiagram(rootElement);
    expect(live.filter((i) => i.rule === 'lab-rules').map((i) => [i.id, i.message])).toEqual([
      ['stain', '用户任务未设置岗位(candidateGroups)'],
      ['gw', '网关的连线未排序（无连线顺序设置）'],
    ]);

    // From elsewhere (no exporter of ours) it runs as Activiti runs it: nothing to refuse.
    const foreign = (await moddle.toXML(rootElement)).xml;
    expect(await modelProblems(await readModel(foreign), 'ihc')).toEqual([]);
    stampDesigner(rootElement as El & { exporter?: string });
    const designed = (await moddle.toXML(rootElement)).xml;
    expect(designed).toContain('exporter="LIMS designer"');
    expect(await modelProblems(await readModel(designed), 'ihc')).toEqual([
      'stain: the user task has no positions (candidateGroups) (user-task-groups)',
      'gw: the conditional flows of the gateway are not ordered (flow order) (gateway-flow-order)',
    ]);

    // Put right in the designer, the same diagram deploys and the live check is clean.
    byId(p, 'stain').set('activiti:candidateGroups', '1001');
    byId(p, 'gw').set('lims:sequenceFlowOrder', 'redo,ok');
    expect((await lintDiagram(rootElement)).filter((i) => i.rule === 'lab-rules')).toEqual([]);
    expect(await modelProblems(await readModel((await moddle.toXML(rootElement)).xml), 'ihc')).toEqual([]);
  });
});

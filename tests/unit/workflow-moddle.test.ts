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
    expect([task.get('activiti:formKey'), task.get('activiti:candidateGroups'), task.get('activiti:priority')]).toEqual(
      ['12', '1001', '80'],
    );
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

/** Every Activiti extension element, with its attributes and children, as Activiti and Flowable files carry them. */
const EXTENSIONS = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:activiti="http://activiti.org/bpmn"
  xmlns:flowable="http://flowable.org/bpmn" targetNamespace="http://www.activiti.org/processdef">
  <process id="ext" name="扩展" isExecutable="true">
    <extensionElements>
      <activiti:executionListener event="start" class="lims.StartListener"/>
      <activiti:eventListener events="TASK_CREATED,TASK_COMPLETED" entityType="task" delegateExpression="\${taskEvents}"/>
      <activiti:potentialStarter><resourceAssignmentExpression><formalExpression>user(admin), group(1001)</formalExpression></resourceAssignmentExpression></activiti:potentialStarter>
    </extensionElements>
    <startEvent id="start" activiti:initiator="applicant">
      <extensionElements>
        <activiti:formProperty id="sample" name="标本" type="enum" expression="\${sampleType}" variable="sampleType" default="blood" datePattern="yyyy-MM-dd" readable="true" writable="false" required="true">
          <activiti:value id="blood" name="血液"/>
          <activiti:value id="tissue" name="组织"/>
        </activiti:formProperty>
      </extensionElements>
    </startEvent>
    <userTask id="review" activiti:candidateGroups="1001" activiti:async="true" flowable:category="lab">
      <extensionElements>
        <activiti:taskListener event="create" delegateExpression="\${notifier}">
          <activiti:field name="channel" stringValue="sms"/>
          <activiti:field name="to" expression="\${applicant}"/>
          <activiti:field name="text"><activiti:string><![CDATA[a < b & c]]></activiti:string></activiti:field>
          <activiti:field name="when"><activiti:expression>\${now}</activiti:expression></activiti:field>
        </activiti:taskListener>
        <activiti:taskListener event="complete" class="lims.Done"/>
        <flowable:taskListener event="assignment" class="lims.Assigned"><flowable:field name="x" stringValue="y"/></flowable:taskListener>
      </extensionElements>
    </userTask>
    <serviceTask id="mail" activiti:class="lims.Mail" activiti:exclusive="false">
      <extensionElements>
        <activiti:field name="subject" stringValue="报告"/>
        <activiti:failedJobRetryTimeCycle>R5/PT7M</activiti:failedJobRetryTimeCycle>
        <activiti:mapException errorCode="E1" includeChildExceptions="true">java.io.IOException</activiti:mapException>
      </extensionElements>
    </serviceTask>
    <callActivity id="sub" calledElement="child" activiti:inheritVariables="false">
      <extensionElements>
        <activiti:in source="sampleId" target="id"/>
        <activiti:in sourceExpression="\${amount + 1}" target="amount"/>
        <activiti:out source="report" target="reportId"/>
      </extensionElements>
    </callActivity>
    <endEvent id="end"/>
    <sequenceFlow id="f1" sourceRef="start" targetRef="review">
      <extensionElements><activiti:executionListener event="take" expression="\${audit.log(execution)}"><activiti:field name="level" stringValue="info"/></activiti:executionListener></extensionElements>
    </sequenceFlow>
    <sequenceFlow id="f2" sourceRef="review" targetRef="mail"/>
    <sequenceFlow id="f3" sourceRef="mail" targetRef="sub"/>
    <sequenceFlow id="f4" sourceRef="sub" targetRef="end"/>
  </process>
</definitions>`;

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };
const decode = (text: string) =>
  text.replace(/&(#x[\da-f]+|#\d+|\w+);/gi, (m, e: string) =>
    e[0] === '#' ? String.fromCodePoint(Number(`0${e.slice(1)}`)) : (ENTITIES[e] ?? m),
  );
const escapeText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * Every element of a document as "its path [its attributes]" and every text as "path = text", sorted.
 * Read independently of moddle, so it shows what a round trip loses; moddle may reorder attributes,
 * sibling elements and namespace declarations and may swap CDATA for escapes, which mean the same.
 */
function outline(xml: string): string[] {
  const plain = xml
    .replace(/<\?[\s\S]*?\?>/g, '')
    .replace(/<!\[CDATA\[([\s\S]*?)\]\]>/g, (_, text: string) => escapeText(text));
  const entries: string[] = [];
  const path: string[] = [];
  for (const [, close, name, attrs, empty, text] of plain.matchAll(
    /<(\/?)([\w:.-]+)((?:\s+[\w:.-]+="[^"]*")*)\s*(\/?)>|([^<]+)/g,
  )) {
    if (text !== undefined) {
      if (text.trim()) entries.push(`${path.join('/')} = ${decode(text.trim())}`);
    } else if (close) path.pop();
    else {
      const own = [...attrs!.matchAll(/([\w:.-]+)="([^"]*)"/g)]
        .filter(([, n]) => !n!.startsWith('xmlns'))
        .map(([, n, v]) => `${n}=${decode(v!)}`)
        .sort();
      path.push(name!);
      entries.push(`${path.join('/')} [${own.join(' ')}]`);
      if (empty) path.pop();
    }
  }
  return entries.sort();
}

type Extended = El & { extensionElements?: { values: El[] } };
const extensionsOf = (el: El) => (el as Extended).extensionElements?.values ?? [];

describe('Activiti extension elements through the designer moddle (issue 4)', () => {
  it('keeps listeners, form properties, fields, call activity in/out and the rest, with every attribute', async () => {
    const first = await moddle.fromXML(EXTENSIONS, 'bpmn:Definitions');
    expect(first.warnings).toEqual([]);
    const { xml } = await moddle.toXML(first.rootElement, { format: true });
    expect(outline(xml)).toEqual(outline(EXTENSIONS));

    // Read back as Activiti's types, not as anonymous XML: the panels can edit them.
    const again = await moddle.fromXML(xml, 'bpmn:Definitions');
    expect(again.warnings).toEqual([]);
    const p = processOf(again.rootElement);
    const [created, completed, foreign] = extensionsOf(byId(p, 'review'));
    expect([created!.$type, completed!.$type, foreign!.$type]).toEqual([
      'activiti:TaskListener',
      'activiti:TaskListener',
      'flowable:taskListener',
    ]);
    const fields = created!.get('fields') as El[];
    expect(fields.map((f) => [f.get('name'), f.get('stringValue') ?? f.get('expression') ?? f.get('string')])).toEqual([
      ['channel', 'sms'],
      ['to', '${applicant}'],
      ['text', 'a < b & c'],
      ['when', undefined],
    ]);
    expect((fields[3]!.get('expressionElement') as { body: string }).body).toBe('${now}');
    const [form] = extensionsOf(byId(p, 'start'));
    expect((form!.get('values') as El[]).map((v) => [v.get('id'), v.get('name')])).toEqual([
      ['blood', '血液'],
      ['tissue', '组织'],
    ]);
    expect(extensionsOf(byId(p, 'sub')).map((e) => [e.$type, e.get('source') ?? e.get('sourceExpression')])).toEqual([
      ['activiti:In', 'sampleId'],
      ['activiti:In', '${amount + 1}'],
      ['activiti:Out', 'report'],
    ]);
    expect(byId(p, 'review').$attrs['flowable:category']).toBe('lab');
    // Activiti reads a potential starter only from <formalExpression>, not from <expression xsi:type=…>.
    expect(xml).toContain('<formalExpression>user(admin), group(1001)</formalExpression>');
  });

  it('drops an Activiti element it does not know with a warning that names it, and still saves the rest', async () => {
    const unknown = EXTENSIONS.replace(
      '<activiti:taskListener event="complete" class="lims.Done"/>',
      '<activiti:taskListener event="complete" class="lims.Done"/><activiti:customThing answer="42"><activiti:part/></activiti:customThing>',
    );
    const { rootElement, warnings } = await moddle.fromXML(unknown, 'bpmn:Definitions');
    expect(warnings.map((w) => (w as Error).message.split('\n')[0])).toEqual([
      'unparsable content <activiti:customThing> detected',
    ]);
    const { xml } = await moddle.toXML(rootElement, { format: true });
    expect(outline(xml)).toEqual(outline(EXTENSIONS));
  });
});

describe('copy flowchart (spec 2.4)', () => {
  it("gives the copied diagram the target model's process id and name, and keeps the rest", async () => {
    const { retargetDiagram } = await import('../../src/web/workflow/copyDiagram');
    // happy-dom's XML parser rejects CDATA sections (Chromium does not), so the conditions are escaped here.
    const plain = ACTIVITI.replace(/<!\[CDATA\[(.*?)\]\]>/g, (_, body: string) => body.replace(/&/g, '&amp;'));
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
      'stain (染色): the user task has no positions (candidateGroups) (user-task-groups)',
      'gw (判读): the conditional flows of the gateway are not ordered (flow order) (gateway-flow-order)',
    ]);
    // In Chinese, in the designer's own words for the same rules.
    expect(await modelProblems(await readModel(designed), 'ihc', [], 'zh-CN')).toEqual([
      'stain「染色」: 用户任务未设置岗位(candidateGroups) (user-task-groups)',
      'gw「判读」: 网关的连线未排序（无连线顺序设置） (gateway-flow-order)',
    ]);

    // Put right in the designer, the same diagram deploys and the live check is clean.
    byId(p, 'stain').set('activiti:candidateGroups', '1001');
    byId(p, 'gw').set('lims:sequenceFlowOrder', 'redo,ok');
    expect((await lintDiagram(rootElement)).filter((i) => i.rule === 'lab-rules')).toEqual([]);
    expect(await modelProblems(await readModel((await moddle.toXML(rootElement)).xml), 'ihc')).toEqual([]);
  });
});

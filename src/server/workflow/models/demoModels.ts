import type { Queryable } from '../../kernel/db/database.js';
import { one } from '../../kernel/db/database.js';
import { BASE_ORG_ID } from '../../../shared/access/can.js';
import { copyModel, getModel } from './repository.js';
import { modelProblems, readModel } from '../engine/validate.js';
import { recordIdsBy } from '../../kernel/resources/demoRecords.js';
import { DESIGNER_EXPORTER } from '../../../shared/workflow/labRules.js';

/**
 * Demo process models (README demo data): a histopathology biopsy flow and a general inspection flow,
 * with user tasks handled by the lab's positions and an exclusive gateway that jumps on the review
 * result. The base organisation keeps both; the main lab has its own copy and a sub lab a distributed one.
 */
type Kind = 'startEvent' | 'endEvent' | 'userTask' | 'exclusiveGateway';
interface Node {
  id: string;
  kind: Kind;
  name: string;
  col: number;
  row?: number;
  /** The specimen step the task's completion performs (lims:specimenStep). */
  step?: string;
  /** The demo form page (schemas/demo/form-list.json, by pageName) the task's worker fills in. */
  form?: string;
}
interface Flow {
  id: string;
  from: string;
  to: string;
  name?: string;
  result?: 'pass' | 'unpass';
}
interface Demo {
  key: string;
  name: string;
  category: number;
  descp: string;
  nodes: Node[];
  flows: Flow[];
}

const DEMOS: Demo[] = [
  {
    key: 'pathology_biopsy',
    name: '组织病理活检流程',
    category: 3,
    descp: '取材、制片、初诊，复核通过后签发报告，不通过退回初诊',
    nodes: [
      { id: 'start', kind: 'startEvent', name: '开始', col: 0 },
      { id: 'grossing', kind: 'userTask', name: '取材', col: 1, step: 'startTesting', form: '病理取材单' },
      { id: 'slide', kind: 'userTask', name: '制片', col: 2, form: '病理制片单' },
      { id: 'firstDiagnosis', kind: 'userTask', name: '初诊', col: 3, form: '病理诊断单' },
      { id: 'review', kind: 'userTask', name: '复核', col: 4, form: '病理复核单' },
      { id: 'reviewGateway', kind: 'exclusiveGateway', name: '复核结果', col: 5 },
      { id: 'signOut', kind: 'userTask', name: '报告签发', col: 6, form: '报告签发单' },
      { id: 'end', kind: 'endEvent', name: '完成', col: 7 },
    ],
    flows: [
      { id: 'f1', from: 'start', to: 'grossing' },
      { id: 'f2', from: 'grossing', to: 'slide' },
      { id: 'f3', from: 'slide', to: 'firstDiagnosis' },
      { id: 'f4', from: 'firstDiagnosis', to: 'review' },
      { id: 'f5', from: 'review', to: 'reviewGateway' },
      { id: 'pass', from: 'reviewGateway', to: 'signOut', name: '通过', result: 'pass' },
      { id: 'unpass', from: 'reviewGateway', to: 'firstDiagnosis', name: '不通过', result: 'unpass' },
      { id: 'f8', from: 'signOut', to: 'end' },
    ],
  },
  {
    key: 'general_inspection',
    name: '普检检验流程',
    category: 1,
    descp: '标本接收、上机检验，审核通过后发布报告，不通过重新检验',
    nodes: [
      { id: 'start', kind: 'startEvent', name: '开始', col: 0 },
      { id: 'receive', kind: 'userTask', name: '标本接收', col: 1, form: '标本接收单' },
      { id: 'inspect', kind: 'userTask', name: '上机检验', col: 2, step: 'startTesting', form: '上机检验单' },
      { id: 'audit', kind: 'userTask', name: '审核', col: 3, form: '检验审核单' },
      { id: 'auditGateway', kind: 'exclusiveGateway', name: '审核结果', col: 4 },
      { id: 'end', kind: 'endEvent', name: '完成', col: 5 },
    ],
    flows: [
      { id: 'f1', from: 'start', to: 'receive' },
      { id: 'f2', from: 'receive', to: 'inspect' },
      { id: 'f3', from: 'inspect', to: 'audit' },
      { id: 'f4', from: 'audit', to: 'auditGateway' },
      { id: 'pass', from: 'auditGateway', to: 'end', name: '通过', result: 'pass' },
      { id: 'unpass', from: 'auditGateway', to: 'inspect', name: '不通过', result: 'unpass' },
    ],
  },
];

const SIZE: Record<Kind, [number, number]> = {
  startEvent: [36, 36],
  endEvent: [36, 36],
  userTask: [100, 80],
  exclusiveGateway: [50, 50],
};
const MID_Y = 200;
const box = (n: Node) => {
  const [w, h] = SIZE[n.kind];
  return { x: 120 + n.col * 160 + (100 - w) / 2, y: MID_Y - h / 2, w, h };
};

function shapeXml(n: Node, groups: string, forms: ReadonlyMap<string, number>): { element: string; shape: string } {
  const b = box(n);
  const step = n.step ? ` lims:specimenStep="${n.step}"` : '';
  const formId = n.form ? forms.get(n.form) : undefined;
  const form = formId ? ` activiti:formKey="${formId}"` : '';
  const task =
    n.kind === 'userTask' ? ` activiti:candidateGroups="${groups}" activiti:priority="50"${form}${step}` : '';
  return {
    element: `    <${n.kind} id="${n.id}" name="${n.name}"${task}/>`,
    shape: `      <bpmndi:BPMNShape id="${n.id}_di" bpmnElement="${n.id}"><omgdc:Bounds x="${b.x}" y="${b.y}" width="${b.w}" height="${b.h}"/></bpmndi:BPMNShape>`,
  };
}

function flowXml(f: Flow, byId: Map<string, Node>): { element: string; edge: string } {
  const a = box(byId.get(f.from)!);
  const b = box(byId.get(f.to)!);
  const name = f.name ? ` name="${f.name}"` : '';
  const condition = f.result
    ? `<conditionExpression xsi:type="tFormalExpression"><![CDATA[\${result == '${f.result}'}]]></conditionExpression>`
    : '';
  const element = condition
    ? `    <sequenceFlow id="${f.id}" sourceRef="${f.from}" targetRef="${f.to}"${name} lims:formId="A99999">${condition}</sequenceFlow>`
    : `    <sequenceFlow id="${f.id}" sourceRef="${f.from}" targetRef="${f.to}"${name}/>`;
  // Forward flows run straight along the middle line; a flow back runs below the row.
  const points =
    b.x > a.x
      ? [
          [a.x + a.w, MID_Y],
          [b.x, MID_Y],
        ]
      : [
          [a.x + a.w / 2, a.y + a.h],
          [a.x + a.w / 2, MID_Y + 110],
          [b.x + b.w / 2, MID_Y + 110],
          [b.x + b.w / 2, b.y + b.h],
        ];
  const waypoints = points.map(([x, y]) => `<omgdi:waypoint x="${x}" y="${y}"/>`).join('');
  return {
    element,
    edge: `      <bpmndi:BPMNEdge id="${f.id}_di" bpmnElement="${f.id}">${waypoints}</bpmndi:BPMNEdge>`,
  };
}

/**
 * The demo's BPMN 2.0 XML in Activiti's dialect, with diagram layout, so the designer shows it as drawn.
 * It is stamped as our designer's, so deploying holds it to the lab rules the designer checks live.
 * @param forms the organisation's form page ids by page name, for the tasks' formKey
 */
export function demoXml(demo: Demo, groups: string, forms: ReadonlyMap<string, number> = new Map()): string {
  const byId = new Map(demo.nodes.map((n) => [n.id, n]));
  const shapes = demo.nodes.map((n) => shapeXml(n, groups, forms));
  const flows = demo.flows.map((f) => flowXml(f, byId));
  const gateways = demo.nodes.filter((n) => n.kind === 'exclusiveGateway');
  const elements = shapes
    .map((s) => s.element)
    .map((line) => {
      const gw = gateways.find((g) => line.includes(`id="${g.id}"`));
      if (!gw) return line;
      const order = demo.flows
        .filter((f) => f.from === gw.id)
        .map((f) => f.id)
        .join(',');
      return line.replace('/>', ` lims:sequenceFlowOrder="${order}"/>`);
    });
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xmlns:activiti="http://activiti.org/bpmn" xmlns:lims="http://lims.local/schema/bpmn" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI"
  xmlns:omgdc="http://www.omg.org/spec/DD/20100524/DC" xmlns:omgdi="http://www.omg.org/spec/DD/20100524/DI"
  exporter="${DESIGNER_EXPORTER}" typeLanguage="http://www.w3.org/2001/XMLSchema" expressionLanguage="http://www.w3.org/1999/XPath" targetNamespace="http://www.activiti.org/processdef">
  <process id="${demo.key}" name="${demo.name}" isExecutable="true">
${elements.join('\n')}
${flows.map((f) => f.element).join('\n')}
  </process>
  <bpmndi:BPMNDiagram id="BPMNDiagram_${demo.key}">
    <bpmndi:BPMNPlane id="BPMNPlane_${demo.key}" bpmnElement="${demo.key}">
${shapes.map((s) => s.shape).join('\n')}
${flows.map((f) => f.edge).join('\n')}
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>
</definitions>
`;
}

/** The organisation's demo form pages by name (the screens' demo rows are seeded before the models). */
const formIds = (tx: Queryable, orgId: number) => recordIdsBy(tx, 'form', orgId, 'pageName');

async function seedOne(tx: Queryable, orgId: number, demo: Demo): Promise<string | undefined> {
  const existing = await one<{ id: string }>(tx, 'select id from process_model where org_id = $1 and key = $2', [
    orgId,
    demo.key,
  ]);
  if (existing) return undefined;
  // Positions of the lab (its roles) handle the tasks; the inspectors' role when there is one.
  const roles = await tx.query<{ id: number }>(
    `select id from role where org_id = $1 order by (code = 'editor') desc, id`,
    [orgId],
  );
  const id = `demo-${orgId}-${demo.key}`;
  const xml = demoXml(demo, roles.map((r) => r.id).join(','), await formIds(tx, orgId));
  await tx.query(
    `insert into process_model (id, org_id, key, name, category, descp, code, bpmn_xml) values ($1, $2, $3, $4, $5, $6, $3, $7)`,
    [id, orgId, demo.key, demo.name, demo.category, demo.descp, xml],
  );
  return id;
}

/** The specimen steps the demo's tasks take; deploy checks them against the specimen lifecycle in the same words. */
const DEMO_STEPS = [...new Set(DEMOS.flatMap((d) => d.nodes.flatMap((n) => (n.step ? [n.step] : []))))];

/**
 * The main lab's models are deployed as version 1, checked as the deploy button checks them, so the
 * lab's first specimen starts its process (issue 24). A demo that breaks a rule stops the seed, naming it.
 */
async function deployOne(tx: Queryable, modelId: string): Promise<void> {
  const model = await one<{ key: string; name: string; orgId: number; xml: string }>(
    tx,
    `select key, name, org_id as "orgId", bpmn_xml as xml from process_model where id = $1 and deployment_id is null`,
    [modelId],
  );
  if (!model) return;
  const problems = await modelProblems(await readModel(model.xml), model.key, DEMO_STEPS);
  if (problems.length > 0) throw new Error(`demo process model ${model.key}: ${problems.join('; ')}`);
  const deploymentId = `${modelId}-v1`;
  await tx.query(
    `insert into process_deployment (id, model_id, key, name, version, xml, org_id) values ($1, $2, $3, $4, 1, $5, $6)
     on conflict (id) do nothing`,
    [deploymentId, modelId, model.key, model.name, model.xml, model.orgId],
  );
  await tx.query('update process_model set deployment_id = $2 where id = $1', [modelId, deploymentId]);
}

/**
 * Base organisation and main lab get both flows, the main lab's deployed; sub lab 2 receives the base
 * biopsy flow as a copy.
 */
export async function seedDemoModels(tx: Queryable): Promise<void> {
  const present = await tx.query<{ id: number }>('select id from organization where id = any($1::int[])', [
    [BASE_ORG_ID, 1, 2],
  ]);
  if (present.length < 3) return;
  // Without the demo forms (a schema folder with no demo rows) the models are left as drafts to finish.
  const formsThere = (await formIds(tx, 1)).size > 0;
  for (const demo of DEMOS) {
    const labId = await seedOne(tx, 1, demo);
    if (labId && formsThere) await deployOne(tx, labId);
    const baseId = await seedOne(tx, BASE_ORG_ID, demo);
    if (baseId && demo.category === 3) await copyModel(tx, (await getModel(tx, baseId))!, 2, null);
  }
}

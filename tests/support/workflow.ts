import { expect } from 'vitest';
import { api as apiClientFor, tokenFor } from './client';

/**
 * What the workflow runtime tests set up the way a lab does: positions (roles) and their staff, form
 * pages made of elements, and process models drawn with formKey + candidateGroups like the designer's.
 */
type Api = ReturnType<typeof apiClientFor>;

export const STAFF_PASSWORD = 'Flow#2026pw';

/** A position of the lab; `menuIds` give it pages (a role without any cannot sign in to the app). */
export async function createRole(admin: Api, name: string, menuIds: number[] = []): Promise<number> {
  const res = await admin.post<{ id: number }>('/api/resources/role', {
    name,
    code: 'editor',
    description: 'workflow test position',
  });
  expect(res.body.resultCode, res.body.resultMessage).toBe(200);
  const id = res.body.resultObject.id;
  if (menuIds.length > 0) {
    const menus = await admin.put(`/api/resources/roleMenu/${id}`, { menuIds, version: 0 });
    expect(menus.body.resultCode, menus.body.resultMessage).toBe(200);
  }
  return id;
}

export async function createUser(admin: Api, userAccount: string, roleIds: number[]): Promise<void> {
  const res = await admin.post('/api/user', { userAccount, userName: userAccount, password: STAFF_PASSWORD, roleIds });
  expect(res.body.resultCode, res.body.resultMessage).toBe(200);
}

/** The password a member of staff chose themselves (no forced change dialog at sign-in). */
export const OWN_PASSWORD = 'Flow#2026ok';

/** A user as the browser tests need them: created by the admin, then their own password chosen (passwordFlag 0). */
export async function createStaff(url: string, admin: Api, userAccount: string, roleIds: number[]): Promise<void> {
  await createUser(admin, userAccount, roleIds);
  const own = apiClientFor(url, await tokenFor(url, userAccount, STAFF_PASSWORD));
  const res = await own.post('/api/user/changePassword', {
    password: STAFF_PASSWORD,
    newPassword: OWN_PASSWORD,
    confirmPassword: OWN_PASSWORD,
  });
  expect(res.body.resultCode, res.body.resultMessage).toBe(200);
}

export interface ElementSpec {
  logicalName: string;
  label: string;
  controlType: string;
  required?: boolean;
  numeric?: boolean;
  unit?: string;
  /** Choices of a select / radio: created as a data source with these codes and names. */
  choices?: [string, string][];
}

/** A form page with its elements (and a data source per control with choices); answers the page id. */
export async function createFormPage(
  admin: Api,
  pageName: string,
  formCode: string,
  elements: ElementSpec[],
): Promise<number> {
  const form = await admin.post<{ id: number }>('/api/form/createForm', {
    pageName,
    formCode,
    category: 3,
    columns: 2,
    tableName: formCode.toLowerCase(),
  });
  expect(form.body.resultCode, form.body.resultMessage).toBe(200);
  const formId = form.body.resultObject.id;
  for (const [i, e] of elements.entries()) {
    let dataSourceId: number | undefined;
    if (e.choices) {
      const root = await admin.post<{ id: number }>('/api/form/createTreeDataSource', {
        dataSourceName: `${pageName}-${e.label}`,
        code: `${formCode}_${e.logicalName}`,
      });
      expect(root.body.resultCode, root.body.resultMessage).toBe(200);
      dataSourceId = root.body.resultObject.id;
      for (const [j, [code, name]] of e.choices.entries()) {
        const child = await admin.post('/api/form/createTreeDataSource', {
          dataSourceName: name,
          code,
          parentId: dataSourceId,
          sort: j,
        });
        expect(child.body.resultCode, child.body.resultMessage).toBe(200);
      }
    }
    const fields = {
      logicalName: e.logicalName,
      label: e.label,
      controlType: e.controlType,
      required: e.required,
      numeric: e.numeric,
      unit: e.unit,
    };
    const created = await admin.post('/api/form/createElement', {
      formId,
      sort: i,
      ...fields,
      ...(dataSourceId && { dataSourceId }),
    });
    expect(created.body.resultCode, created.body.resultMessage).toBe(200);
  }
  return formId;
}

/** Creates a model (category 1-5), saves its XML as the designer does, deploys it; answers the model id. */
export async function deployXml(
  url: string,
  token: string,
  admin: Api,
  key: string,
  xml: string,
  category = 3,
): Promise<string> {
  const created = await admin.post<{ id: string }>('/api/workflow/model/insert', { key, name: key, category });
  expect(created.body.resultCode, created.body.resultMessage).toBe(200);
  const id = created.body.resultObject.id;
  await saveXml(url, token, id, xml);
  const deployed = await admin.get(`/api/workflow/model/deploy?modelId=${id}`);
  expect(deployed.body.resultCode, deployed.body.resultMessage).toBe(200);
  return id;
}

export async function saveXml(url: string, token: string, modelId: string, xml: string): Promise<void> {
  const saved = await fetch(`${url}/api/workflow/model/${modelId}/xml/save`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ bpmn_xml: xml, svg_xml: '' }),
  });
  expect(saved.status).toBe(200);
}

type NodeKind = 'startEvent' | 'endEvent' | 'userTask' | 'exclusiveGateway' | 'parallelGateway';
export interface Node {
  id: string;
  kind: NodeKind;
  name?: string;
  formKey?: number;
  groups?: number[];
  /** Exclusive gateway: ids of its outgoing flows in the order they are tried. */
  order?: string[];
  default?: string;
}
export interface Flow {
  id: string;
  from: string;
  to: string;
  condition?: string;
}

/**
 * BPMN 2.0 XML in the designer's dialect, laid out on a grid so the trace viewer can draw it: nodes
 * left to right in the order given (forks below one another), straight edges between them.
 */
export function modelXml(key: string, name: string, nodes: Node[], flows: Flow[]): string {
  const size = (n: Node) => (n.kind === 'userTask' ? [100, 80] : n.kind.endsWith('Event') ? [36, 36] : [50, 50]);
  const pos = new Map<string, { x: number; y: number; w: number; h: number }>();
  const columns = new Map<string, number>();
  nodes.forEach((n, i) => {
    const incoming = flows
      .filter((f) => f.to === n.id)
      .map((f) => columns.get(f.from))
      .filter((c): c is number => c !== undefined);
    const col = incoming.length ? Math.max(...incoming) + 1 : i === 0 ? 0 : i;
    columns.set(n.id, col);
    const row = [...columns.entries()].filter(([id, c]) => c === col && id !== n.id).length;
    const [w, h] = size(n);
    pos.set(n.id, { x: 80 + col * 170 + (100 - w!) / 2, y: 120 + row * 140 + (80 - h!) / 2, w: w!, h: h! });
  });
  const attrs = (n: Node) =>
    [
      n.name && `name="${n.name}"`,
      n.formKey !== undefined && `activiti:formKey="${n.formKey}"`,
      n.groups && `activiti:candidateGroups="${n.groups.join(',')}"`,
      n.order && `lims:sequenceFlowOrder="${n.order.join(',')}"`,
      n.default && `default="${n.default}"`,
    ]
      .filter(Boolean)
      .join(' ');
  const elements = nodes.map((n) => `<${n.kind} id="${n.id}" ${attrs(n)}/>`);
  const sequence = flows.map((f) =>
    f.condition
      ? `<sequenceFlow id="${f.id}" sourceRef="${f.from}" targetRef="${f.to}"><conditionExpression xsi:type="tFormalExpression"><![CDATA[${f.condition}]]></conditionExpression></sequenceFlow>`
      : `<sequenceFlow id="${f.id}" sourceRef="${f.from}" targetRef="${f.to}"/>`,
  );
  const shapes = nodes.map((n) => {
    const b = pos.get(n.id)!;
    return `<bpmndi:BPMNShape id="${n.id}_di" bpmnElement="${n.id}"><omgdc:Bounds x="${b.x}" y="${b.y}" width="${b.w}" height="${b.h}"/></bpmndi:BPMNShape>`;
  });
  const edges = flows.map((f) => {
    const a = pos.get(f.from)!;
    const b = pos.get(f.to)!;
    return `<bpmndi:BPMNEdge id="${f.id}_di" bpmnElement="${f.id}"><omgdi:waypoint x="${a.x + a.w}" y="${a.y + a.h / 2}"/><omgdi:waypoint x="${b.x}" y="${b.y + b.h / 2}"/></bpmndi:BPMNEdge>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xmlns:activiti="http://activiti.org/bpmn" xmlns:lims="http://lims.local/schema/bpmn" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI"
  xmlns:omgdc="http://www.omg.org/spec/DD/20100524/DC" xmlns:omgdi="http://www.omg.org/spec/DD/20100524/DI" targetNamespace="http://www.activiti.org/processdef">
  <process id="${key}" name="${name}" isExecutable="true">
    ${[...elements, ...sequence].join('\n    ')}
  </process>
  <bpmndi:BPMNDiagram id="BPMNDiagram_${key}"><bpmndi:BPMNPlane id="BPMNPlane_${key}" bpmnElement="${key}">
    ${[...shapes, ...edges].join('\n    ')}
  </bpmndi:BPMNPlane></bpmndi:BPMNDiagram>
</definitions>`;
}

/**
 * A biopsy flow as a lab draws it: 取材 (grossing form: tumour size, site) routes on the tumour size in
 * the gateway's flow order (large before small; default none) to one of three slide tasks, then 复核
 * (review form) passes to 签发 or sends an unpass back to 取材. The slide tasks and 签发 show no form.
 */
export function biopsyModel(
  key: string,
  ids: { grossGroup: number; diagGroup: number; grossForm: number; reviewForm: number },
): string {
  const task = (id: string, name: string, formKey: number | undefined, group: number): Node => ({
    id,
    kind: 'userTask',
    name,
    formKey,
    groups: [group],
  });
  return modelXml(
    key,
    '活检流程',
    [
      { id: 'start', kind: 'startEvent', name: '开始' },
      task('grossing', '取材', ids.grossForm, ids.grossGroup),
      // Flow order puts "large" first: a size of 5 makes both conditions true and "large" must win.
      {
        id: 'sizeGateway',
        kind: 'exclusiveGateway',
        name: '标本大小',
        order: ['toLarge', 'toSmall', 'toNone'],
        default: 'toNone',
      },
      task('smallSlide', '小标本制片', undefined, ids.diagGroup),
      task('largeSlide', '大标本制片', undefined, ids.diagGroup),
      task('plainSlide', '常规制片', undefined, ids.diagGroup),
      task('review', '复核', ids.reviewForm, ids.diagGroup),
      { id: 'reviewGateway', kind: 'exclusiveGateway', name: '复核结果' },
      task('signOut', '签发', undefined, ids.diagGroup),
      { id: 'end', kind: 'endEvent', name: '完成' },
    ],
    [
      { id: 'f1', from: 'start', to: 'grossing' },
      { id: 'f2', from: 'grossing', to: 'sizeGateway' },
      // In the file "small" comes first; the gateway's sequenceFlowOrder decides.
      { id: 'toSmall', from: 'sizeGateway', to: 'smallSlide', condition: '${tumorSize > 0}' },
      { id: 'toLarge', from: 'sizeGateway', to: 'largeSlide', condition: '${tumorSize >= 3}' },
      { id: 'toNone', from: 'sizeGateway', to: 'plainSlide' },
      { id: 'f3', from: 'smallSlide', to: 'review' },
      { id: 'f4', from: 'largeSlide', to: 'review' },
      { id: 'f5', from: 'plainSlide', to: 'review' },
      { id: 'f6', from: 'review', to: 'reviewGateway' },
      { id: 'pass', from: 'reviewGateway', to: 'signOut', condition: "${result == 'pass'}" },
      { id: 'unpass', from: 'reviewGateway', to: 'grossing', condition: "${result == 'unpass'}" },
      { id: 'f7', from: 'signOut', to: 'end' },
    ],
  );
}

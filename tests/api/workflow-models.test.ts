import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';

interface Model {
  id: string;
  modelId: string;
  orgId: number;
  key: string;
  name: string;
  version: number;
  category: number;
  syncFlag: number;
  newVersion: number;
  deploymentId: string | null;
  lastUpdateTime: string;
}
interface Done {
  code: number;
  message: string;
}

let server: TestServer;
const tokens = new Map<string, string>();
const as = async (account: string) => {
  if (!tokens.has(account)) tokens.set(account, await tokenFor(server.url, account, DEMO_PASSWORD));
  return api(server.url, tokens.get(account));
};
const list = async (account: string, query = '') =>
  (await (await as(account)).get<Model[]>(`/api/workflow/model/list${query}`)).body.resultObject;

/** The designer's save: form-encoded bpmn_xml and svg_xml (spec 7.5). */
async function saveXml(account: string, id: string, bpmnXml: string) {
  await as(account);
  const res = await fetch(`${server.url}/api/workflow/model/${id}/xml/save`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${tokens.get(account)}`,
      'content-type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams({ bpmn_xml: bpmnXml, svg_xml: '<svg xmlns="http://www.w3.org/2000/svg"/>' }),
  });
  return {
    status: res.status,
    body: (await res.json()) as { resultCode: number; resultMessage: string; resultObject: Model },
  };
}

const diagram = (key: string, task: string) => `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:activiti="http://activiti.org/bpmn" targetNamespace="t">
  <process id="${key}" name="n" isExecutable="true">
    <startEvent id="start" name="开始"/>
    <userTask id="task" name="${task}" activiti:candidateGroups="1001"/>
    <endEvent id="end" name="完成"/>
    <sequenceFlow id="f1" sourceRef="start" targetRef="task"/>
    <sequenceFlow id="f2" sourceRef="task" targetRef="end"/>
  </process>
</definitions>`;

/**
 * A model as the designer saves it (exporter stamp, so deploy holds it to the lab rules): a task, then
 * a gateway choosing between two conditional flows, ok and redo. The task's and the gateway's Activiti /
 * LIMS attributes are given as written; ok's condition may be replaced.
 */
const designed = (key: string, task: string, gateway: string, okCondition = "${result == 'pass'}") =>
  `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xmlns:activiti="http://activiti.org/bpmn" xmlns:lims="http://lims.local/schema/bpmn" targetNamespace="t" exporter="LIMS designer">
  <process id="${key}" name="规则流程" isExecutable="true">
    <startEvent id="start" name="开始"/>
    <userTask id="task" name="初审"${task}/>
    <exclusiveGateway id="gw" name="结果"${gateway}/>
    <endEvent id="passed" name="完成"/>
    <endEvent id="failed" name="完成"/>
    <sequenceFlow id="f1" sourceRef="start" targetRef="task"/>
    <sequenceFlow id="f2" sourceRef="task" targetRef="gw"/>
    <sequenceFlow id="ok" sourceRef="gw" targetRef="passed"><conditionExpression xsi:type="tFormalExpression">${okCondition}</conditionExpression></sequenceFlow>
    <sequenceFlow id="redo" sourceRef="gw" targetRef="failed"><conditionExpression xsi:type="tFormalExpression">\${result == 'unpass'}</conditionExpression></sequenceFlow>
  </process>
</definitions>`;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.dispose());

describe('process models (spec 2.4, 7.5)', () => {
  let modelId = '';

  it('adds a model with the default category and refuses a duplicate key with the server message', async () => {
    const admin = await as('admin');
    const res = await admin.post<Model>('/api/workflow/model/insert', {
      key: 'hpv_test',
      name: 'HPV检测流程',
      descp: '宫颈HPV',
      orgId: 1,
    });
    expect(res.body.resultCode).toBe(200);
    expect(res.body.resultMessage).toBe('新增成功');
    expect(res.body.resultObject).toMatchObject({
      key: 'hpv_test',
      category: 2,
      version: 1,
      syncFlag: 0,
      deploymentId: null,
    });
    modelId = res.body.resultObject.modelId;
    const again = await admin.post('/api/workflow/model/insert', { key: 'hpv_test', name: 'x', orgId: 1 });
    expect(again.status).toBe(400);
    expect(again.body.resultMessage).toBe('流程标识已存在');
    expect((await admin.post('/api/workflow/model/insert', { key: '1 bad', name: 'x' })).status).toBe(400);
  });

  it('lists by keyword and sorts on the server; other labs never see the rows', async () => {
    const rows = await list('admin', '?orgId=1&searchKeyWord=HPV');
    expect(rows.map((r) => r.key)).toEqual(['hpv_test']);
    const byKey = await list('admin', '?orgId=1&sort=key&order=desc');
    expect(byKey.map((r) => r.key)).toEqual([...byKey.map((r) => r.key)].sort().reverse());
    expect(byKey.length).toBeGreaterThanOrEqual(3);
    expect((await list('lab2admin')).map((r) => r.key)).not.toContain('hpv_test');
    expect((await (await as('lab2admin')).get('/api/workflow/model/list?orgId=1')).status).toBe(403);
    expect((await (await as('lab2admin')).get(`/api/workflow/model/${modelId}/xml`)).status).toBe(403);
    expect((await (await as('lab2admin')).get(`/api/workflow/deleteModel?modelId=${modelId}`)).status).toBe(403);
  });

  it('opens a new model with a start event, saves form-encoded XML and refuses malformed XML keeping the stored one', async () => {
    const admin = await as('admin');
    const fresh = await admin.get<{ bpmnXml: string }>(`/api/workflow/model/${modelId}/xml`);
    expect(fresh.body.resultObject.bpmnXml).toContain('name="开始"');
    const saved = await saveXml('admin', modelId, diagram('hpv_test', '初审'));
    expect(saved.body.resultMessage).toBe('编辑成功');
    const broken = await saveXml('admin', modelId, '<definitions><process id="x">');
    expect(broken.status).toBe(400);
    expect(broken.body.resultMessage).toMatch(/^流程图XML格式不正确/);
    expect((await saveXml('admin', modelId, '<foo/>')).status).toBe(400);
    const stored = await admin.get<{ bpmnXml: string }>(`/api/workflow/model/${modelId}/xml`);
    expect(stored.body.resultObject.bpmnXml).toContain('activiti:candidateGroups="1001"');
    expect(stored.body.resultObject.bpmnXml).toContain('初审');
  });

  it('deploys a drawn model and records the deployment on the row', async () => {
    const admin = await as('admin');
    const res = await admin.get<{ deploymentId: string; version: number }>(
      `/api/workflow/model/deploy?modelId=${modelId}`,
    );
    expect(res.body.resultCode).toBe(200);
    expect(res.body.resultMessage).toBe('部署成功');
    const row = (await list('admin')).find((r) => r.id === modelId)!;
    expect(row.deploymentId).toBe(res.body.resultObject.deploymentId);
    const again = await admin.get<{ version: number }>(`/api/workflow/model/deploy?modelId=${modelId}`);
    expect(again.body.resultObject.version).toBe(res.body.resultObject.version + 1);
    const undrawn = await admin.post<Model>('/api/workflow/model/insert', {
      key: 'empty_one',
      name: '空流程',
    });
    const refused = await admin.get(`/api/workflow/model/deploy?modelId=${undrawn.body.resultObject.id}`);
    expect(refused.status).toBe(400);
    expect(refused.body.resultMessage).toBe('流程尚未设计，不能部署');
  });

  it('refuses to deploy a designer-saved model that breaks the lab rules, says why, and leaves it undeployed', async () => {
    const admin = await as('admin');
    const created = await admin.post<Model>('/api/workflow/model/insert', {
      key: 'lab_rules',
      name: '规则流程',
    });
    const id = created.body.resultObject.id;
    // As the designer saves it (exporter stamp), with the task's form and positions and the gateway's order left out.
    const drawn = (task: string, gateway: string) => designed('lab_rules', task, gateway);
    expect((await saveXml('admin', id, drawn('', ''))).status).toBe(200);
    const refused = await admin.get(`/api/workflow/model/deploy?modelId=${id}`);
    expect(refused.status).toBe(400);
    expect(refused.body.resultMessage).toBe(
      '流程模型校验失败：task「初审」: 用户任务未设置表单(formKey) (user-task-form)；' +
        'task「初审」: 用户任务未设置岗位(candidateGroups) (user-task-groups)；' +
        'gw「结果」: 网关的连线未排序（无连线顺序设置） (gateway-flow-order)',
    );
    expect((await list('admin')).find((r) => r.id === id)?.deploymentId).toBeNull();

    // Form, positions and order set, the same model deploys.
    const fixed = drawn(' activiti:formKey="12" activiti:candidateGroups="1001"', ' lims:sequenceFlowOrder="redo,ok"');
    expect((await saveXml('admin', id, fixed)).status).toBe(200);
    const deployed = await admin.get<{ deploymentId: string }>(`/api/workflow/model/deploy?modelId=${id}`);
    expect(deployed.body.resultMessage).toBe('部署成功');
    expect((await list('admin')).find((r) => r.id === id)?.deploymentId).toBe(deployed.body.resultObject.deploymentId);
  });

  it('refuses to deploy a model whose condition does not parse, names the flow and the problem, and deploys it fixed', async () => {
    const admin = await as('admin');
    const created = await admin.post<Model>('/api/workflow/model/insert', {
      key: 'bad_condition',
      name: '条件流程',
    });
    const id = created.body.resultObject.id;
    // Every lab rule kept, so the one thing wrong is ok's condition, which lacks its right-hand side.
    const withOk = (condition: string) =>
      designed(
        'bad_condition',
        ' activiti:formKey="12" activiti:candidateGroups="1001"',
        ' lims:sequenceFlowOrder="redo,ok"',
        condition,
      );
    expect((await saveXml('admin', id, withOk('${amount >}'))).status).toBe(200);
    const refused = await admin.get(`/api/workflow/model/deploy?modelId=${id}`);
    expect(refused.status).toBe(400);
    expect(refused.body.resultMessage).toBe(
      '流程模型校验失败：ok: 条件 "${amount >}"：无法解析：Expected expression after > at character 8',
    );
    expect((await list('admin')).find((r) => r.id === id)?.deploymentId).toBeNull();

    expect((await saveXml('admin', id, withOk('${amount > 100}'))).status).toBe(200);
    const deployed = await admin.get<{ deploymentId: string }>(`/api/workflow/model/deploy?modelId=${id}`);
    expect(deployed.body.resultMessage).toBe('部署成功');
    expect((await list('admin')).find((r) => r.id === id)?.deploymentId).toBe(deployed.body.resultObject.deploymentId);
  });

  it('leaves deleting to admins and deletes for good', async () => {
    const editor = await as('editor');
    expect((await editor.get(`/api/workflow/deleteModel?modelId=${modelId}`)).status).toBe(403);
    const res = await (await as('admin')).get(`/api/workflow/deleteModel?modelId=${modelId}`);
    expect(res.body).toMatchObject({ resultCode: 200, resultMessage: '删除成功' });
    expect((await list('admin')).some((r) => r.id === modelId)).toBe(false);
  });
});

describe('public models: sync, distribute, import, confirm updates (code 20000)', () => {
  it('syncs the main lab models up to the base organisation', async () => {
    const admin = await as('admin');
    const created = await admin.post<Model>('/api/workflow/model/insert', {
      key: 'cyto_tct',
      name: 'TCT细胞学流程',
      category: 4,
    });
    const id = created.body.resultObject.id;
    await saveXml('admin', id, diagram('cyto_tct', '阅片'));
    const res = await admin.post<Done>('/api/workflow/syncModel', { ids: id, syncFlag: 1 });
    expect(res.body).toMatchObject({ code: 20000, message: '同步成功' });
    expect((await list('admin')).find((r) => r.id === id)?.syncFlag).toBe(1);
    expect((await list('baseadmin')).some((r) => r.key === 'cyto_tct')).toBe(true);
    expect((await (await as('lab2admin')).post('/api/workflow/syncModel', { ids: id, syncFlag: 1 })).status).toBe(403);
  });

  it('distributes chosen base models to chosen labs, flags copies when the base changes, and the lab confirms', async () => {
    const group = await as('baseadmin');
    const source = (await list('baseadmin')).find((r) => r.key === 'cyto_tct')!;
    const noLab = await group.post('/api/workflow/issueModel', { ids: source.id, orgIds: '' });
    expect(noLab.body.resultMessage).toBe('请先选择要下发的实验室');
    const res = await group.post<Done>('/api/workflow/issueModel', { ids: source.id, orgIds: '2,3' });
    expect(res.body).toMatchObject({ code: 20000, message: '下发成功' });
    const copy = (await list('lab3admin')).find((r) => r.key === 'cyto_tct')!;
    expect(copy).toMatchObject({ syncFlag: 1, newVersion: 0 });

    await saveXml('baseadmin', source.id, diagram('cyto_tct', '阅片（新版）'));
    const flagged = (await list('lab3admin')).find((r) => r.key === 'cyto_tct')!;
    expect(flagged).toMatchObject({ syncFlag: 2, newVersion: 3 });

    const lab = await as('lab3admin');
    expect((await lab.post('/api/workflow/syncModel', { ids: '', syncFlag: 2 })).body.resultMessage).toBe(
      '请先勾选数据进行操作',
    );
    const confirmed = await lab.post<Done>('/api/workflow/syncModel', { ids: copy.id, syncFlag: 2 });
    expect(confirmed.body).toMatchObject({ code: 20000, message: '更新成功' });
    const after = (await list('lab3admin')).find((r) => r.key === 'cyto_tct')!;
    expect(after).toMatchObject({ syncFlag: 1, newVersion: 0, version: 3 });
    expect(
      (await lab.get<{ bpmnXml: string }>(`/api/workflow/model/${copy.id}/xml`)).body.resultObject.bpmnXml,
    ).toContain('阅片（新版）');
  });

  it('flags a copy of a base model distributed before it was drawn once the base draws it', async () => {
    const group = await as('baseadmin');
    const draft = (
      await group.post<Model>('/api/workflow/model/insert', {
        key: 'frozen_section',
        name: '术中冰冻流程',
        category: 3,
      })
    ).body.resultObject;
    await group.post('/api/workflow/issueModel', { ids: draft.id, orgIds: '2' });
    await saveXml('baseadmin', draft.id, diagram('frozen_section', '冰冻切片'));
    expect((await list('lab2admin')).find((r) => r.key === 'frozen_section')).toMatchObject({
      syncFlag: 2,
      newVersion: 2,
    });
  });

  it('lets a sub lab import base models into its own org only, and refuses only-labs', async () => {
    const base = await list('lab3admin', '?orgId=0');
    const pick = base.find((r) => r.key === 'general_inspection')!;
    const lab = await as('lab3admin');
    const res = await lab.post<Done>('/api/workflow/issueModel', { ids: pick.id, orgIds: '3' });
    expect(res.body).toMatchObject({ code: 20000, message: '导入成功' });
    expect((await list('lab3admin')).map((r) => r.key)).toContain('general_inspection');
    expect((await list('lab2admin')).map((r) => r.key)).not.toContain('general_inspection');
    expect(
      (await lab.post('/api/workflow/issueModel', { ids: (await list('admin'))[0]!.id, orgIds: '3' })).status,
    ).toBe(403);
    expect((await (await as('onlyadmin')).post('/api/workflow/issueModel', { ids: pick.id, orgIds: '4' })).status).toBe(
      403,
    );
  });
});

describe('deploy messages in the user’s language (issue 22)', () => {
  /**
   * A model from elsewhere with several problems of each kind: a transaction and a signal start the
   * engine cannot run, a timer that is not ISO 8601, a condition in Groovy, a task that nothing reaches.
   */
  const troubled = `<?xml version="1.0" encoding="UTF-8"?>
<definitions xmlns="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" targetNamespace="t">
  <signal id="sig" name="batchReleased"/>
  <process id="msg_lang" name="msg_lang" isExecutable="true">
    <startEvent id="start" name="Order"/>
    <startEvent id="onRelease" name="On release"><signalEventDefinition signalRef="sig"/></startEvent>
    <transaction id="tx" name="Hold batch">
      <startEvent id="txStart"/><endEvent id="txEnd"/>
      <sequenceFlow id="t1" sourceRef="txStart" targetRef="txEnd"/>
    </transaction>
    <userTask id="review" name="Review"/>
    <boundaryEvent id="late" name="Overdue" attachedToRef="review"><timerEventDefinition><timeDuration>2 hours</timeDuration></timerEventDefinition></boundaryEvent>
    <exclusiveGateway id="gw"/>
    <userTask id="orphan" name="Forgotten"/>
    <endEvent id="end"/>
    <sequenceFlow id="f1" sourceRef="start" targetRef="tx"/>
    <sequenceFlow id="f2" sourceRef="onRelease" targetRef="tx"/>
    <sequenceFlow id="f3" sourceRef="tx" targetRef="review"/>
    <sequenceFlow id="f4" sourceRef="review" targetRef="gw"/>
    <sequenceFlow id="f5" sourceRef="gw" targetRef="end"><conditionExpression xsi:type="tFormalExpression" language="groovy">ok == true</conditionExpression></sequenceFlow>
    <sequenceFlow id="f6" sourceRef="late" targetRef="end"/>
  </process>
</definitions>`;

  it('lists every problem with its element id and name, what the engine cannot run first, in Chinese by default and in English', async () => {
    const created = await (await as('admin')).post<Model>('/api/workflow/model/insert', { key: 'msg_lang', name: 'x' });
    const id = created.body.resultObject.id;
    expect((await saveXml('admin', id, troubled)).status).toBe(200);
    const deploy = (locale?: string) =>
      api(server.url, tokens.get('admin'), locale).get(`/api/workflow/model/deploy?modelId=${id}`);

    const zh = await deploy();
    expect(zh.status).toBe(400);
    const zhProblems = zh.body.resultMessage.replace('流程模型校验失败：', '').split('；');
    expect(zhProblems).toEqual([
      'onRelease「On release」: 引擎不运行信号开始事件（信号只送达已在运行、正在等待它的实例），请用消息或定时开始事件启动流程',
      'tx「Hold batch」: 引擎不支持Transaction',
      'late「Overdue」: timeDuration “2 hours”不是 ISO 8601 时长（如 PT2H）',
      'f5: 条件使用“groovy”语言编写，引擎无法计算，请写成 ${...}',
      'orphan「Forgotten」: 元素没有连线 (no-disconnected)',
    ]);
    expect(zh.body.resultMessage).not.toMatch(/not supported|is not an ISO/);

    const en = await deploy('en-US');
    expect(en.status).toBe(400);
    const enProblems = en.body.resultMessage.replace('The process model is not valid: ', '').split('; ');
    expect(enProblems).toEqual([
      'onRelease (On release): a signal start event is not run by the engine (a signal reaches only running instances waiting for it), start the process by a message or a timer instead',
      'tx (Hold batch): Transaction is not supported by the engine',
      'late (Overdue): timeDuration "2 hours" is not an ISO 8601 duration (PT2H)',
      'f5: the condition is written in "groovy", which the engine does not evaluate, write it as ${...}',
      'orphan (Forgotten): Element is not connected (no-disconnected)',
    ]);
    // Nothing was deployed.
    expect((await list('admin')).find((r) => r.id === id)?.deploymentId).toBeNull();
  });
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, tokenFor } from '../support/client';
import { DEMO_PASSWORD, startServer, type TestServer } from '../support/server';

/**
 * Deployed models run (issue 5): every Activiti fixture of ../shared/fixtures/activiti deployed through
 * the model calls of spec 7.5 and driven step by step as its README says, through the task API.
 */
const FIXTURES = path.resolve(import.meta.dirname, '../../../shared/fixtures/activiti');
const fixture = (file: string) => readFileSync(path.join(FIXTURES, file), 'utf8');

interface Task {
  id: string;
  name: string;
  formKey: string | null;
  assignee: string | null;
  instanceId: string;
  candidateGroups: string[];
}

let server: TestServer;
const tokens = new Map<string, string>();
const PASSWORD = 'Muppet#2026x';
const as = async (account: string) => {
  if (!tokens.has(account)) tokens.set(account, await tokenFor(server.url, account, account === 'admin' ? DEMO_PASSWORD : PASSWORD));
  return api(server.url, tokens.get(account), 'en-US');
};

async function deploy(file: string): Promise<string> {
  const xml = fixture(file);
  const key = /<process id="([^"]+)"/.exec(xml)![1]!;
  const admin = await as('admin');
  const created = await admin.post<{ id: string }>('/api/workflow/model/insert', { key, name: key });
  expect(created.body.resultCode, created.body.resultMessage).toBe(200);
  const id = created.body.resultObject.id;
  const saved = await fetch(`${server.url}/api/workflow/model/${id}/xml/save`, {
    method: 'POST',
    headers: { authorization: `Bearer ${tokens.get('admin')}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ bpmn_xml: xml, svg_xml: '' }),
  });
  expect(saved.status).toBe(200);
  const deployed = await admin.get(`/api/workflow/model/deploy?modelId=${id}`);
  expect(deployed.body.resultCode, deployed.body.resultMessage).toBe(200);
  return key;
}

async function start(modelKey: string, variables: Record<string, unknown> = {}) {
  return (await as('admin')).post<{ processInstanceId: string }>('/api/workflow/process/start', { modelKey, variables });
}
async function started(modelKey: string, variables: Record<string, unknown> = {}) {
  const res = await start(modelKey, variables);
  expect(res.body.resultCode, res.body.resultMessage).toBe(200);
  return res.body.resultObject.processInstanceId;
}
async function todo(account: string, query = '') {
  return (await (await as(account)).get<Task[]>(`/api/workflow/task/todo${query}`)).body.resultObject;
}
const names = async (instance: string, account = 'admin') => (await todo(account, `?processInstanceId=${instance}`)).map((t) => t.name).sort();
async function complete(account: string, task: Task | undefined, body: object = {}) {
  expect(task).toBeDefined();
  return (await as(account)).post(`/api/workflow/task/${task!.id}/complete`, body);
}
async function completeNamed(instance: string, name: string, account = 'admin') {
  const task = (await todo(account, `?processInstanceId=${instance}`)).find((t) => t.name === name);
  const res = await complete(account, task);
  expect(res.body.resultCode, res.body.resultMessage).toBe(200);
}
const status = async (instance: string) => (await (await as('admin')).get<{ status: string }>(`/api/workflow/process/${instance}`)).body.resultObject.status;

beforeAll(async () => {
  server = await startServer();
  const admin = await as('admin');
  const role = async (name: string) => {
    const res = await admin.post<{ id: number }>('/api/resources/role', { name, code: 'editor', description: 'fixture group' });
    expect(res.body.resultCode, res.body.resultMessage).toBe(200);
    return res.body.resultObject.id;
  };
  const management = await role('management');
  const accountancy = await role('accountancy');
  const user = async (userAccount: string, roleIds: number[]) => {
    const res = await admin.post('/api/user', { userAccount, userName: userAccount, password: PASSWORD, roleIds });
    expect(res.body.resultCode, res.body.resultMessage).toBe(200);
  };
  await user('kermit', [management, accountancy]);
  await user('fozzie', [management]);
  await user('gonzo', []);
}, 60_000);
afterAll(() => server?.dispose());

describe('Activiti fixtures run as their README says', () => {
  it('1. exclusive gateway with a default flow', async () => {
    const key = await deploy('ExclusiveGatewayTest.testDefaultSequenceFlow.bpmn20.xml');
    const a = await started(key, { input: 1 });
    expect(await names(a)).toEqual(['Input is one']);
    await completeNamed(a, 'Input is one');
    expect(await status(a)).toBe('completed');
    const b = await started(key, { input: 5 });
    expect(await names(b)).toEqual(['Default input']);
    await completeNamed(b, 'Default input');
    expect(await status(b)).toBe('completed');
    const c = await started(key, { input: 3 });
    expect(await names(c)).toEqual(['Input is three']);
  });

  it('2. the first true condition in file order wins', async () => {
    const key = await deploy('ExclusiveGatewayTest.testMultipleValidConditions.bpmn20.xml');
    const a = await started(key, { input: 5 });
    expect(await names(a)).toEqual(['Task 2']);
    await completeNamed(a, 'Task 2');
    expect(await status(a)).toBe('completed');
    expect(await names(await started(key, { input: 1 }))).toEqual(['Task 1']);
    expect(await names(await started(key, { input: 2 }))).toEqual(['Task 2']);
  });

  it('3. unbalanced fork and join', async () => {
    const key = await deploy('ParallelGatewayTest.testUnbalancedForkJoin.bpmn20.xml');
    const p = await started(key);
    expect(await names(p)).toEqual(['Task 1', 'Task 2', 'Task 3']);
    await completeNamed(p, 'Task 1');
    expect(await names(p)).toEqual(['Task 2', 'Task 3']);
    await completeNamed(p, 'Task 2');
    expect(await names(p)).toEqual(['Task 3', 'Task 4']);
    await completeNamed(p, 'Task 3');
    expect(await names(p)).toEqual(['Task 4']);
    await completeNamed(p, 'Task 4');
    expect(await status(p)).toBe('completed');
  });

  it('4. inclusive gateway takes every true flow, and fails when none is', async () => {
    const key = await deploy('InclusiveGatewayTest.testDecisionFunctionality.bpmn20.xml');
    const one = await started(key, { input: 1 });
    expect(await names(one)).toEqual(['Call customer', 'Check account balance', 'Send e-mail for more information']);
    expect(await names(await started(key, { input: 2 }))).toEqual(['Call customer', 'Check account balance']);
    expect(await names(await started(key, { input: 3 }))).toEqual(['Call customer']);
    const before = (await todo('admin', `?processKey=${key}`)).length;
    const failed = await start(key, { input: 4 });
    expect(failed.status).toBe(400);
    expect(failed.body.resultMessage).toMatch(/cannot continue/);
    expect((await todo('admin', `?processKey=${key}`)).length).toBe(before);
    await completeNamed(one, 'Call customer');
    await completeNamed(one, 'Check account balance');
    expect(await status(one)).toBe('running');
    await completeNamed(one, 'Send e-mail for more information');
    expect(await status(one)).toBe('completed');
  });

  it('5. candidate groups: listed once per user, refused to others', async () => {
    const key = await deploy('TaskAssignmentExtensionsTest.testCandidateGroupsExtension.bpmn20.xml');
    const p = await started(key);
    const kermit = await todo('kermit', `?processInstanceId=${p}`);
    expect(kermit.map((t) => t.name)).toEqual(['make profit']);
    expect(kermit[0]!.assignee).toBeNull();
    expect(kermit[0]!.candidateGroups).toEqual(['management', 'accountancy']);
    expect((await todo('fozzie', `?processInstanceId=${p}`)).length).toBe(1);
    expect((await todo('gonzo', `?processInstanceId=${p}`)).length).toBe(0);
    const refused = await complete('gonzo', kermit[0]);
    expect(refused.status).toBe(403);
    await completeNamed(p, 'make profit', 'fozzie');
    expect(await status(p)).toBe('completed');
  });

  it('6. candidate users', async () => {
    const key = await deploy('TaskAssignmentExtensionsTest.testCandidateUsersExtension.bpmn20.xml');
    const p = await started(key);
    expect((await todo('kermit', `?processInstanceId=${p}`)).length).toBe(1);
    expect((await todo('gonzo', `?processInstanceId=${p}`)).length).toBe(1);
    expect((await todo('fozzie', `?processInstanceId=${p}`)).length).toBe(0);
    await completeNamed(p, 'my task', 'gonzo');
    expect(await status(p)).toBe('completed');
  });

  it('7. form key expressions are resolved when the task is created', async () => {
    const key = await deploy('TaskServiceTest.testFormKeyExpression.bpmn20.xml');
    const p = await started(key, { var: 'abc' });
    const [first] = await todo('admin', `?processInstanceId=${p}`);
    expect([first!.name, first!.formKey]).toEqual(['my task 1', 'first-form.json']);
    await complete('admin', first);
    const [second] = await todo('admin', `?processInstanceId=${p}`);
    expect([second!.name, second!.formKey]).toEqual(['my task 2', 'form-abc.json']);
    await complete('admin', second);
    expect(await status(p)).toBe('completed');
  });

  it('8. parallel multi-instance ends when 3 of 5 are complete (pass weight 60 %)', async () => {
    const key = await deploy('MultiInstanceTest.testParallelUserTasksCompletionCondition.bpmn20.xml');
    const p = await started(key);
    const tasks = await todo('admin', `?processInstanceId=${p}`);
    expect(tasks.map((t) => t.name).sort()).toEqual(['My Task 0', 'My Task 1', 'My Task 2', 'My Task 3', 'My Task 4']);
    await complete('admin', tasks[0]);
    expect(await names(p)).toHaveLength(4);
    await complete('admin', tasks[1]);
    expect(await names(p)).toHaveLength(3);
    await complete('admin', tasks[2]);
    expect(await names(p)).toHaveLength(0);
    expect(await status(p)).toBe('completed');
  });

  it('9. nested sequential multi-instance: one task at a time, assigned to kermit', async () => {
    const key = await deploy('MultiInstanceTest.testNestedSequentialUserTasks.bpmn20.xml');
    const p = await started(key);
    for (let i = 0; i < 3; i++) {
      const tasks = await todo('kermit', `?processInstanceId=${p}`);
      expect(tasks.map((t) => [t.name, t.assignee])).toEqual([['My Task', 'kermit']]);
      await complete('kermit', tasks[0]);
    }
    expect(await status(p)).toBe('completed');
  });

  it('10-11. call activity starts the latest simpleSubProcess and resumes the caller', async () => {
    await deploy('simpleSubProcess.bpmn20.xml');
    const key = await deploy('CallActivity.testCallSimpleSubProcess.bpmn20.xml');
    const p = await started(key);
    expect(await names(p)).toEqual(['Task before subprocess']);
    await completeNamed(p, 'Task before subprocess');
    const parent = (await (await as('admin')).get<{ children: { id: string }[] }>(`/api/workflow/process/${p}`)).body.resultObject;
    expect(parent.children).toHaveLength(1);
    const child = parent.children[0]!.id;
    expect(await names(child)).toEqual(['Task in subprocess']);
    expect(await names(p)).toEqual([]);
    await completeNamed(child, 'Task in subprocess');
    expect(await status(child)).toBe('completed');
    expect(await names(p)).toEqual(['Task after subprocess']);
    await completeNamed(p, 'Task after subprocess');
    expect(await status(p)).toBe('completed');
    const trace = (await (await as('admin')).get<{ finished: string[] }>(`/api/workflow/process/${child}/trace`)).body.resultObject;
    // Elements ended and flows taken, in the order the engine passed them.
    expect(trace.finished).toEqual(['theStart', 'flow1', 'task', 'flow2', 'theEnd']);
  });

  it('12. parallel gateways inside an embedded subprocess', async () => {
    const key = await deploy('SubProcessTest.testSimpleParallelSubProcess.bpmn20.xml');
    const p = await started(key);
    expect(await names(p)).toEqual(['Task A', 'Task B']);
    await completeNamed(p, 'Task A');
    expect(await names(p)).toEqual(['Task B']);
    await completeNamed(p, 'Task B');
    expect(await names(p)).toEqual(['Task after sub process']);
    await completeNamed(p, 'Task after sub process');
    expect(await status(p)).toBe('completed');
  });
});

describe('failures, concurrency and restarts', () => {
  it('an expression that cannot be evaluated fails the start with its message and leaves nothing', async () => {
    // Deployed by test 2 above; started without the variable its conditions read.
    const res = await start('exclusiveGwMultipleValidConditions', {});
    expect(res.status).toBe(400);
    expect(res.body.resultMessage).toMatch(/variable "input" is not defined/);
  });

  it('two completions of one task at once: exactly one succeeds, the other is told it is done', async () => {
    const p = await started('candidateGroupsExtension');
    const [task] = await todo('kermit', `?processInstanceId=${p}`);
    const results = await Promise.all([complete('kermit', task), complete('fozzie', task)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body.resultMessage).toBe('This task has already been completed');
    expect(await status(p)).toBe('completed');
  });

  it('a restarted server finds the waiting task and the instance completes', async () => {
    const p = await started('UnbalancedForkJoin');
    await completeNamed(p, 'Task 1');
    server = await server.restart();
    tokens.clear();
    expect(await names(p)).toEqual(['Task 2', 'Task 3']);
    for (const name of ['Task 2', 'Task 3', 'Task 4']) await completeNamed(p, name);
    expect(await status(p)).toBe('completed');
  }, 60_000);
});

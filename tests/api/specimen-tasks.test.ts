import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';
import { enterSpecimens } from '../support/specimens';
import { deployXml, modelXml, saveXml } from '../support/workflow';
import type { RecordEvent } from '../../src/shared/lifecycle/events';

/**
 * Completing a workflow task moves its specimen: a user task that names a specimen step
 * (lims:specimenStep) runs that transition of the specimen's lifecycle when it is completed, with the
 * same refusals as the step run from a screen, in the completion's transaction.
 */
interface Task {
  id: string;
  name: string;
  businessKey: string | null;
  barcode?: string;
  patientName?: string;
  items?: string;
}
type Page<T> = { records: T[]; total: number };
type Specimen = { id: number; barcode: string; status: string; patientName: string };

let server: TestServer;
let admin: ReturnType<typeof api>;
let token = '';

/** A model of one path: its user tasks in order, each taking the specimen step given it (if any). */
function pathModel(key: string, name: string, tasks: { name: string; step?: string }[]) {
  const ids = ['start', ...tasks.map((_, i) => `t${i + 1}`), 'end'];
  const xml = modelXml(
    key,
    name,
    [
      { id: 'start', kind: 'startEvent', name: '开始' },
      ...tasks.map((t, i) => ({ id: `t${i + 1}`, kind: 'userTask' as const, name: t.name })),
      { id: 'end', kind: 'endEvent', name: '完成' },
    ],
    ids.slice(1).map((to, i) => ({ id: `f${i + 1}`, from: ids[i]!, to })),
  );
  return tasks.reduce(
    (x, t, i) =>
      t.step ? x.replace(`<userTask id="t${i + 1}"`, `<userTask lims:specimenStep="${t.step}" id="t${i + 1}"`) : x,
    xml,
  );
}

/** A model of the category of the purpose specimens are entered with: 检验 (start testing), then 复检 (the same step). */
const testingModel = (key: string, step = 'startTesting') =>
  pathModel(key, '检验流程', [
    { name: '检验', step },
    { name: '复检', step },
  ]);

beforeAll(async () => {
  server = await startServer();
  token = await tokenFor(server.url, 'admin', DEMO_PASSWORD);
  admin = api(server.url, token);
  const purpose = (await admin.get<Page<{ category: string }>>('/api/resources/inspectionPurpose?size=1')).body
    .resultObject.records[0]!;
  await deployXml(
    server.url,
    token,
    admin,
    'specimen_testing',
    testingModel('specimen_testing'),
    Number(purpose.category),
  );
});
afterAll(() => server?.dispose());

const specimen = async (barcode: string) =>
  (await admin.get<Page<Specimen>>(`/api/resources/specimen?barcode=${barcode}`)).body.resultObject.records[0]!;
const tasksOf = async (barcode: string) =>
  (await admin.get<Task[]>(`/api/workflow/task/todo?businessKey=${barcode}`)).body.resultObject;
const complete = (task: Task) => admin.post(`/api/workflow/task/${task.id}/complete`, { result: 'pass' });

describe('a task that names a specimen step', () => {
  it('is refused while the specimen cannot take the step, and changes nothing', async () => {
    const [barcode] = await enterSpecimens(admin, 1);
    const [task] = await tasksOf(barcode!);
    expect(task?.name).toBe('检验');
    const res = await complete(task!);
    expect([res.status, res.body.resultMessage]).toEqual([400, '当前状态为「已登记」，不能执行「开始检验」']);
    expect((await specimen(barcode!)).status).toBe('registered');
    expect((await tasksOf(barcode!)).map((t) => t.id)).toEqual([task!.id]);
  });

  it('moves the specimen when completed, stamped with who completed it; a repeat leaves it where it is', async () => {
    const [barcode] = await enterSpecimens(admin, 1);
    const s = await specimen(barcode!);
    expect((await admin.post(`/api/resources/specimen/${s.id}/transitions/receive`, {})).status).toBe(200);
    const [task] = await tasksOf(barcode!);
    // The work list shows whose specimen the task is about.
    expect(task).toMatchObject({ barcode, patientName: s.patientName });
    expect(task!.items).toBeTruthy();
    expect((await complete(task!)).body.resultCode).toBe(200);
    expect((await specimen(barcode!)).status).toBe('inTesting');
    const [retest] = await tasksOf(barcode!);
    expect(retest?.name).toBe('复检');
    expect((await complete(retest!)).body.resultCode).toBe(200);
    expect((await specimen(barcode!)).status).toBe('inTesting');
    const history = (await admin.get<RecordEvent[]>(`/api/resources/specimen/${s.id}/events`)).body.resultObject;
    expect(
      history.filter((e) => e.kind === 'transition').map((e) => [e.name, e.toState, e.actorName, e.details?.task]),
    ).toEqual([
      ['create', 'registered', '系统管理员', undefined],
      ['receive', 'received', '系统管理员', undefined],
      ['startTesting', 'inTesting', '系统管理员', '检验'],
    ]);
  });
});

describe('tasks completed together (批量办理)', () => {
  const batch = (ids: string[], variables: Record<string, unknown> = {}) =>
    admin.post<{ completed: number }>('/api/workflow/task/batchComplete', { taskIds: ids, variables });
  const received = async (n: number) => {
    const barcodes = await enterSpecimens(admin, n);
    for (const b of barcodes)
      expect(
        (await admin.post(`/api/resources/specimen/${(await specimen(b)).id}/transitions/receive`, {})).status,
      ).toBe(200);
    return barcodes;
  };

  it('completes each, moving each specimen and process on, in one call', async () => {
    const barcodes = await received(3);
    const tasks = (await Promise.all(barcodes.map(tasksOf))).map(([t]) => t!);
    const res = await batch(tasks.map((t) => t.id));
    expect([res.status, res.body.resultMessage, res.body.resultObject]).toEqual([
      200,
      '已办理 3 项任务',
      { completed: 3 },
    ]);
    for (const b of barcodes) {
      expect((await specimen(b)).status).toBe('inTesting');
      expect((await tasksOf(b)).map((t) => t.name)).toEqual(['复检']);
      const events = (await admin.get<RecordEvent[]>(`/api/resources/specimen/${(await specimen(b)).id}/events`)).body
        .resultObject;
      // Each task a step of its specimen's history: which task, who, with the result the batch gave.
      expect(events.filter((e) => e.kind === 'task').map((e) => [e.name, e.actorName, e.details.result])).toEqual([
        ['检验', '系统管理员', 'pass'],
      ]);
    }
  });

  it('completes none when one of them cannot be, naming it', async () => {
    const [ready] = await received(1);
    const [early] = await enterSpecimens(admin, 1);
    const [a] = await tasksOf(ready!);
    const [b] = await tasksOf(early!);
    const res = await batch([a!.id, b!.id]);
    expect([res.status, res.body.resultMessage]).toEqual([
      400,
      `任务「${early} 检验」：当前状态为「已登记」，不能执行「开始检验」`,
    ]);
    expect((await tasksOf(ready!)).map((t) => t.id)).toEqual([a!.id]);
    expect((await specimen(ready!)).status).toBe('received');
    const none = await batch([]);
    expect([none.status, none.body.resultMessage]).toEqual([400, '请先勾选数据进行操作']);
  });
});

describe("a specimen's end short of a report", () => {
  type Instance = { id: string; status: string; currentTasks: string[] };
  const instanceOf = async (barcode: string) =>
    (await admin.get<Page<Instance>>(`/api/workflow/process/list?businessKey=${barcode}`)).body.resultObject.records;

  it('ends its process when the specimen is rejected or cancelled: its tasks leave the work list', async () => {
    const [rejected, cancelled, kept] = await enterSpecimens(admin, 3);
    for (const barcode of [rejected, cancelled, kept])
      expect((await tasksOf(barcode!)).map((t) => t.name)).toEqual(['检验']);
    const reason = (await admin.get<Page<{ id: number }>>('/api/resources/abnormalSampleType?size=1')).body.resultObject
      .records[0]!.id;
    const reject = await admin.post(`/api/resources/specimen/${(await specimen(rejected!)).id}/transitions/reject`, {
      rejectReason: reason,
    });
    expect(reject.status, JSON.stringify(reject.body)).toBe(200);
    const cancel = await admin.post(`/api/resources/specimen/${(await specimen(cancelled!)).id}/transitions/cancel`, {
      cancelReason: '患者取消',
    });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);

    for (const barcode of [rejected, cancelled]) {
      expect(await tasksOf(barcode!)).toEqual([]);
      const [instance] = await instanceOf(barcode!);
      expect(instance).toMatchObject({ status: 'terminated', currentTasks: [] });
      // The trace closes with the termination, by whom the specimen was ended.
      const trace = (
        await admin.get<{ status: string; history: { elementType: string; event: string; userName: string }[] }>(
          `/api/workflow/process/${instance!.id}/trace`,
        )
      ).body.resultObject;
      expect(trace.history.at(-1)).toMatchObject({
        elementType: 'Process',
        event: 'terminate',
        userName: '系统管理员',
      });
    }
    // Nor is a process started for it by hand (启动流程).
    const again = await admin.post(`/api/workflow/specimen/${(await specimen(rejected!)).id}/start`);
    expect([again.status, again.body.resultMessage]).toEqual([400, '标本已拒收或已取消，不再启动流程']);
    expect(await instanceOf(rejected!)).toHaveLength(1);
    // Another specimen's work is left as it was.
    expect((await tasksOf(kept!)).map((t) => t.name)).toEqual(['检验']);
    expect(await instanceOf(kept!)).toMatchObject([{ status: 'running' }]);
    const terminated = (await admin.get<Page<Instance>>('/api/workflow/process/list?status=terminated&size=500')).body
      .resultObject.records;
    expect(terminated.map((i) => i.id)).toEqual(
      expect.arrayContaining([(await instanceOf(rejected!))[0]!.id, (await instanceOf(cancelled!))[0]!.id]),
    );
  });

  it('starts its process again when a cancelled specimen is reinstated: its tasks are back in the work list', async () => {
    // The workflow manager counts the model's instances still running: an ended one is not.
    const running = async () =>
      (
        await admin.get<{ key: string; version: number; running: number }[]>('/api/workflow/deployments')
      ).body.resultObject.find((d) => d.key === 'specimen_testing')!.running;
    const [barcode] = await enterSpecimens(admin, 1);
    const id = (await specimen(barcode!)).id;
    const before = await running();
    const cancel = await admin.post(`/api/resources/specimen/${id}/transitions/cancel`, { cancelReason: '误取消' });
    expect(cancel.status, JSON.stringify(cancel.body)).toBe(200);
    expect(await tasksOf(barcode!)).toEqual([]);
    expect(await running()).toBe(before - 1);
    const reinstate = await admin.post(`/api/resources/specimen/${id}/transitions/reinstate`, {
      reinstateReason: '医生确认继续检验',
    });
    expect(reinstate.status, JSON.stringify(reinstate.body)).toBe(200);
    expect((await tasksOf(barcode!)).map((t) => t.name)).toEqual(['检验']);
    const instances = await instanceOf(barcode!);
    expect(instances.map((i) => i.status).sort()).toEqual(['running', 'terminated']);
    expect(await running()).toBe(before);
    const history = (await admin.get<RecordEvent[]>(`/api/resources/specimen/${id}/events`)).body.resultObject;
    expect(history.filter((e) => e.kind === 'workflow').map((e) => e.name)).toEqual(['started', 'started']);
  });
});

describe('a task of its own process that rejects the specimen', () => {
  it('lets the process go on along its own path, not ended under the task', async () => {
    const purpose = (await admin.get<Page<{ category: string }>>('/api/resources/inspectionPurpose?size=1')).body
      .resultObject.records[0]!;
    const xml = pathModel('specimen_refusal', '拒收流程', [{ name: '拒收', step: 'reject' }, { name: '通知临床' }]);
    await deployXml(server.url, token, admin, 'specimen_refusal', xml, Number(purpose.category));
    const [barcode] = await enterSpecimens(admin, 1);
    const [task] = await tasksOf(barcode!);
    expect(task?.name).toBe('拒收');
    const reason = (await admin.get<Page<{ id: number }>>('/api/resources/abnormalSampleType?size=1')).body.resultObject
      .records[0]!.id;
    const done = await admin.post(`/api/workflow/task/${task!.id}/complete`, {
      result: 'pass',
      variables: { rejectReason: reason },
    });
    expect(done.body.resultCode, JSON.stringify(done.body)).toBe(200);
    expect((await specimen(barcode!)).status).toBe('rejected');
    const statusOf = async () =>
      (await admin.get<Page<{ status: string }>>(`/api/workflow/process/list?businessKey=${barcode}`)).body.resultObject
        .records[0]?.status;
    // The rejection is the process's own step: its next task (telling the ward) follows as modelled.
    const [notify] = await tasksOf(barcode!);
    expect([notify?.name, await statusOf()]).toEqual(['通知临床', 'running']);
    expect((await complete(notify!)).body.resultCode).toBe(200);
    expect(await statusOf()).toBe('completed');
  });
});

describe('deploying', () => {
  it('refuses a model whose task names a step a task may not take', async () => {
    const created = await admin.post<{ id: string }>('/api/workflow/model/insert', {
      key: 'bad_step',
      name: 'bad_step',
      category: 1,
    });
    const id = created.body.resultObject.id;
    for (const step of ['send', 'noSuchStep']) {
      await saveXml(server.url, token, id, testingModel('bad_step', step));
      const res = await admin.get(`/api/workflow/model/deploy?modelId=${id}`);
      expect(res.body.resultMessage).toContain(`“${step}”不是任务可执行的标本步骤`);
    }
  });

  it('offers the designer the steps a task may take, in the user’s language', async () => {
    const steps = (await admin.get<{ name: string; label: string }[]>('/api/workflow/specimen-steps')).body
      .resultObject;
    expect(steps).toContainEqual({ name: 'startTesting', label: '开始检验' });
    expect(steps.map((s) => s.name)).not.toContain('send');
  });
});

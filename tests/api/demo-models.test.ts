import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, tokenFor } from '../support/client';
import { DEMO_PASSWORD, startServer, type TestServer } from '../support/server';

/**
 * The demo's process models on a first start (issue 24): the main lab's two flows are deployed, every
 * user task has a form page, so a worker's first specimen runs into its first task with a form.
 */
interface Model {
  key: string;
  deploymentId: string | null;
}
interface Task {
  id: string;
  name: string;
  businessKey: string | null;
}
interface TaskDetail {
  form: { pageName: string; elements: { key: string; label: string }[] } | null;
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.dispose());

const as = async (account: string) => api(server.url, await tokenFor(server.url, account, DEMO_PASSWORD), 'zh-CN');

describe('demo process models', () => {
  it('are deployed in the main lab, not in the base organisation', async () => {
    const models = async (account: string) =>
      (await (await as(account)).get<Model[]>('/api/workflow/model/list')).body.resultObject;
    const lab = await models('admin');
    for (const key of ['pathology_biopsy', 'general_inspection'])
      expect(lab.find((m) => m.key === key)?.deploymentId, key).toBeTruthy();
    expect((await models('baseadmin')).find((m) => m.key === 'pathology_biopsy')?.deploymentId).toBeNull();
  });

  it("start the editor's first histopathology specimen at 取材, whose form asks for the sampling", async () => {
    const editor = await as('editor');
    const purposes = (
      await editor.get<{ records: { id: number; category: string }[] }>('/api/resources/inspectionPurpose?size=100')
    ).body.resultObject.records;
    const first = async (resource: string) =>
      (await editor.get<{ records: { id: number }[] }>(`/api/resources/${resource}?size=1`)).body.resultObject
        .records[0]!.id;
    const res = await editor.post<{ barcode: string }>('/api/resources/specimen', {
      patientName: '新同事',
      sex: 'female',
      age: 41,
      hospital: await first('referralHospital'),
      purposes: [purposes.find((p) => p.category === '3')!.id],
      specimenType: await first('specimenType'),
      collectedAt: '2026-11-24 08:00:00',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const barcode = res.body.resultObject.barcode;
    // The process starts once the entry is committed: the task appears a moment later.
    let task: Task | undefined;
    await expect
      .poll(async () => {
        const todo = (await editor.get<Task[]>(`/api/workflow/task/todo?businessKey=${barcode}`)).body.resultObject;
        task = todo[0];
        return todo.map((t) => t.name);
      })
      .toEqual(['取材']);
    const detail = (await editor.get<TaskDetail>(`/api/workflow/task/${task!.id}`)).body.resultObject;
    expect(detail.form?.pageName).toBe('病理取材单');
    expect(detail.form?.elements.map((e) => e.label)).toEqual(['取材部位', '组织块数', '大体所见']);
  });
});

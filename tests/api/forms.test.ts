import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';

/** Spec 7.6: forms, elements and tree data sources under their spec call names, per organisation. */
interface Row {
  id: number;
  version: number;
  pageName?: string;
  logicalName?: string;
  syncFlag: number;
}
type Page = { records: Row[]; total: number };

let server: TestServer;
const as = async (account: string) => api(server.url, await tokenFor(server.url, account, DEMO_PASSWORD));

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.dispose());

describe('form pages and their controls', () => {
  let formId = 0;

  it('creates, finds, edits and deletes form pages with the spec calls', async () => {
    const lab = await as('admin');
    const created = await lab.post<Row>('/api/form/createForm', {
      pageName: '测试-病理初审单',
      formCode: 'T_PATH_FIRST',
      category: 3,
    });
    expect(created.status).toBe(200);
    formId = created.body.resultObject.id;
    const found = await lab.get<Page>('/api/form/findFormList?formPageName=测试-病理');
    expect(found.body.resultObject.records.map((r) => r.pageName)).toEqual(['测试-病理初审单']);
    const edited = await lab.post<Row>('/api/form/editForm', { id: formId, pageName: '测试-病理初审表' });
    expect(edited.status).toBe(200);
    expect(edited.body.resultObject.pageName).toBe('测试-病理初审表');

    const doomed = (
      await lab.post<Row>('/api/form/createForm', { pageName: '测试-待删', formCode: 'T_DOOMED', category: 2 })
    ).body.resultObject;
    expect((await lab.post('/api/form/delForm', { ids: String(doomed.id) })).status).toBe(200);
    expect((await lab.get<Page>('/api/form/findFormList?formPageName=测试-待删')).body.resultObject.total).toBe(0);
  });

  it('refuses a page without a name, in the caller language, and stores nothing', async () => {
    const lab = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD), 'en-US');
    const res = await lab.post('/api/form/createForm', { formCode: 'T_NONAME', category: 2 });
    expect(res.status).toBe(400);
    expect(res.body.resultMessage).toMatch(/Page name/);
    expect((await lab.get<Page>('/api/form/findFormList?formCode=T_NONAME')).body.resultObject.total).toBe(0);
  });

  it('answers the pages (id, pageName) and one page controls as key → label JSON text', async () => {
    const lab = await as('admin');
    const add = (logicalName: string, label: string, sort: number) =>
      lab.post<Row>('/api/form/createElement', { formId, logicalName, label, controlType: 'input', sort });
    expect((await add('tumorSize', '肿瘤大小', 2)).status).toBe(200);
    expect((await add('firstResult', '初审结果', 1)).status).toBe(200);
    const twice = await add('tumorSize', '重复', 3);
    expect(twice.status).toBe(400);

    const infos = await lab.get<{ id: number; pageName: string }[]>('/api/form/findAllFormInfos?orgId=1');
    expect(infos.body.resultObject).toContainEqual({ id: formId, pageName: '测试-病理初审表' });
    const cols = await lab.get<string>(`/api/form/findFormColsById?id=${formId}`);
    expect(JSON.parse(cols.body.resultObject)).toEqual({ firstResult: '初审结果', tumorSize: '肿瘤大小' });
    const elements = await lab.get<Page>(`/api/form/findElementList?logicalName=tumor&formId=${formId}`);
    expect(elements.body.resultObject.records.map((r) => r.logicalName)).toEqual(['tumorSize']);
  });

  it('keeps each laboratory to its own forms', async () => {
    const lab2 = await as('lab2admin');
    expect((await lab2.get<Page>('/api/form/findFormList?formPageName=测试-病理')).body.resultObject.total).toBe(0);
    expect((await lab2.get('/api/form/findAllFormInfos?orgId=1')).status).toBe(403);
    expect((await lab2.get(`/api/form/findFormColsById?id=${formId}`)).status).toBe(403);
    expect((await lab2.post('/api/form/editForm', { id: formId, pageName: '偷改' })).status).toBe(404);
    expect((await lab2.post('/api/form/delForm', { id: formId })).status).toBe(404);
    expect((await (await as('editor')).post('/api/form/delForm', { id: formId })).status).toBe(403);
  });
});

describe('public workflow data', () => {
  it('is distributed by the base organisation, synchronised by the main lab and imported by a sub lab', async () => {
    const group = await as('baseadmin');
    const form = (
      await group.post<Row>('/api/form/createForm', {
        pageName: '测试-公共申请单',
        formCode: 'T_PUBLIC_REQ',
        category: 1,
      })
    ).body.resultObject;
    const issued = await group.post<{ copied: number }>('/api/form/issueForm', { ids: String(form.id), orgIds: '2' });
    expect(issued.body).toMatchObject({ code: 20000, data: { copied: 1 } });
    const inLab2 = (await (await as('lab2admin')).get<Page>('/api/form/findFormList?formPageName=测试-公共')).body
      .resultObject.records;
    expect(inLab2.map((r) => [r.pageName, r.syncFlag])).toEqual([['测试-公共申请单', 1]]);

    const main = await as('admin');
    expect((await main.post('/api/form/syncForm', {})).body).toMatchObject({ code: 20000 });
    expect((await main.get<Page>('/api/form/findFormList?formPageName=测试-公共')).body.resultObject.total).toBe(1);

    const lab3 = await as('lab3admin');
    const offered = await lab3.get<Page>('/api/form/findFormList?orgId=0&formPageName=测试-公共');
    expect(offered.body.resultObject.records.map((r) => r.id)).toEqual([form.id]);
    expect((await lab3.post('/api/form/syncForm', { ids: String(form.id) })).body).toMatchObject({
      code: 20000,
      data: { copied: 1 },
    });
    expect((await lab3.get<Page>('/api/form/findFormList?formPageName=测试-公共')).body.resultObject.total).toBe(1);
    expect((await lab3.post('/api/form/issueForm', { ids: String(form.id), orgIds: '2' })).status).toBe(403);
  });
});

describe('input helper', () => {
  it('keeps phrases and answers one by name and a use as a map', async () => {
    const lab = await as('admin');
    const saved = await lab.post<Row>('/api/inputhelper/upsert', {
      name: '测试-慢性胃炎',
      useType: 'diagnosis',
      content: '（胃窦）慢性非萎缩性胃炎，轻度。',
    });
    expect(saved.status).toBe(200);
    const again = await lab.post<Row>('/api/inputhelper/upsert', {
      id: saved.body.resultObject.id,
      content: '（胃窦）慢性非萎缩性胃炎，中度。',
    });
    expect(again.status).toBe(200);
    const one = await lab.get<{ content: string }>(
      `/api/inputhelper/getResultByName?name=${encodeURIComponent('测试-慢性胃炎')}`,
    );
    expect(one.body.resultObject.content).toBe('（胃窦）慢性非萎缩性胃炎，中度。');
    const map = await lab.get<Record<string, string>>('/api/form/findDictionaryMap?useType=diagnosis');
    expect(map.body.resultObject['测试-慢性胃炎']).toBe('（胃窦）慢性非萎缩性胃炎，中度。');
    expect(
      (
        await (
          await as('lab2admin')
        ).get(`/api/inputhelper/getResultByName?name=${encodeURIComponent('测试-慢性胃炎')}`)
      ).status,
    ).toBe(404);
  });
});

describe('elements and tree data sources under the spec 7.6 call names', () => {
  interface Named extends Row {
    label?: string;
    dataSourceName?: string;
  }

  it('creates, finds, edits (without a version, as spec callers send it) and deletes an element', async () => {
    const lab = await as('admin');
    const form = (
      await lab.post<Row>('/api/form/createForm', { pageName: '测试-元素载体', formCode: 'T_ELEM_HOST', category: 2 })
    ).body.resultObject;
    const element = { formId: form.id, logicalName: 't_specimen_weight', label: '标本重量', controlType: 'input' };
    const created = await lab.post<Named>('/api/form/createElement', element);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { id, version } = created.body.resultObject;

    const found = await lab.get<{ records: Named[]; total: number }>(
      '/api/form/findElementList?logicalName=t_specimen',
    );
    expect(found.body.resultObject.records.map((r) => r.logicalName)).toEqual(['t_specimen_weight']);

    const edited = await lab.post<Named>('/api/form/editElement', { ...element, id, label: '标本重量(g)' });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.resultObject.label).toBe('标本重量(g)');
    expect(edited.body.resultObject.version).toBe(version + 1);

    expect((await lab.post('/api/form/delElement', { id })).status).toBe(200);
    expect((await lab.get<Page>('/api/form/findElementList?logicalName=t_specimen')).body.resultObject.total).toBe(0);
  });

  it('creates, finds, edits and deletes a tree data source', async () => {
    const lab = await as('admin');
    const source = { dataSourceName: '测试-取材部位树', code: 'T_SITE_TREE' };
    const created = await lab.post<Named>('/api/form/createTreeDataSource', source);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const { id } = created.body.resultObject;

    const found = await lab.get<{ records: Named[]; total: number }>(
      '/api/form/findTreeDataSourceList?dataSourceName=测试-取材',
    );
    expect(found.body.resultObject.records.map((r) => r.dataSourceName)).toEqual(['测试-取材部位树']);

    const edited = await lab.post<Named>('/api/form/editTreeDataSource', {
      ...source,
      id,
      dataSourceName: '测试-取材部位',
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body.resultObject.dataSourceName).toBe('测试-取材部位');

    expect((await lab.post('/api/form/delTreeDataSource', { ids: String(id) })).status).toBe(200);
    expect(
      (await lab.get<Page>('/api/form/findTreeDataSourceList?dataSourceName=测试-取材')).body.resultObject.total,
    ).toBe(0);
  });

  it("refuses another laboratory's lists, and refuses an element without its label, storing nothing", async () => {
    const lab = await as('admin');
    expect((await lab.get('/api/form/findElementList?orgId=2')).status).toBe(403);
    expect((await lab.get('/api/form/findTreeDataSourceList?orgId=3')).status).toBe(403);
    const form = (
      await lab.post<Row>('/api/form/createForm', { pageName: '测试-缺标签', formCode: 'T_NO_LABEL', category: 2 })
    ).body.resultObject;
    const refused = await lab.post('/api/form/createElement', {
      formId: form.id,
      logicalName: 't_no_label',
      controlType: 'input',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.resultMessage).toBe('显示名称不能为空');
    expect((await lab.get<Page>('/api/form/findElementList?logicalName=t_no_label')).body.resultObject.total).toBe(0);
  });
});

describe('public elements and tree data sources: issue and sync (spec 7.6)', () => {
  it('distributes a data source from the base organisation, and lets the main lab synchronise it and a sub lab import it', async () => {
    const group = await as('baseadmin');
    const source = (
      await group.post<Row>('/api/form/createTreeDataSource', {
        dataSourceName: '测试-公共部位树',
        code: 'T_PUBLIC_SITE',
      })
    ).body.resultObject;
    const noLab = await group.post('/api/form/issueTreeDataSource', { ids: String(source.id), orgIds: '' });
    expect([noLab.status, noLab.body.resultMessage]).toEqual([400, '请先选择要下发的实验室']);
    const issued = await group.post<{ copied: number }>('/api/form/issueTreeDataSource', {
      ids: String(source.id),
      orgIds: '2',
    });
    expect(issued.body).toMatchObject({ code: 20000, data: { copied: 1 } });
    const inLab2 = await (
      await as('lab2admin')
    ).get<{ records: (Row & { dataSourceName: string })[] }>(
      '/api/form/findTreeDataSourceList?dataSourceName=测试-公共',
    );
    expect(inLab2.body.resultObject.records.map((r) => [r.dataSourceName, r.syncFlag])).toEqual([
      ['测试-公共部位树', 1],
    ]);

    const main = await as('admin');
    expect((await main.post('/api/form/syncTreeDataSource', {})).body).toMatchObject({ code: 20000 });
    expect(
      (await main.get<Page>('/api/form/findTreeDataSourceList?dataSourceName=测试-公共')).body.resultObject.total,
    ).toBe(1);
    // A sub lab takes only what it picks, and may not distribute.
    const lab3 = await as('lab3admin');
    expect((await lab3.post('/api/form/syncTreeDataSource', { ids: String(source.id) })).body).toMatchObject({
      code: 20000,
      data: { copied: 1 },
    });
    expect(
      (await lab3.get<Page>('/api/form/findTreeDataSourceList?dataSourceName=测试-公共')).body.resultObject.total,
    ).toBe(1);
    expect((await lab3.post('/api/form/issueTreeDataSource', { ids: String(source.id), orgIds: '2' })).status).toBe(
      403,
    );
  });

  it("lets the main lab synchronise the base organisation's elements, which then list on its own copy of their form", async () => {
    const group = await as('baseadmin');
    const form = (
      await group.post<Row>('/api/form/createForm', {
        pageName: '测试-同步元素载体',
        formCode: 'T_SYNC_HOST',
        category: 2,
      })
    ).body.resultObject;
    const element = { formId: form.id, logicalName: 't_sync_margin', label: '公共-切缘距离', controlType: 'input' };
    expect((await group.post('/api/form/createElement', element)).status).toBe(200);

    const main = await as('admin');
    expect((await main.get<Page>('/api/form/findElementList?logicalName=t_sync_margin')).body.resultObject.total).toBe(
      0,
    );
    // The form first, so that the element's copy is pointed at the lab's own copy of its page.
    expect((await main.post('/api/form/syncForm', {})).body).toMatchObject({ code: 20000 });
    const synced = await main.post<{ copied: number }>('/api/form/syncElement', {});
    expect(synced.body).toMatchObject({ code: 20000 });

    const labForm = (await main.get<Page>('/api/form/findFormList?formPageName=测试-同步元素')).body.resultObject
      .records;
    expect(labForm.map((r) => [r.pageName, r.syncFlag])).toEqual([['测试-同步元素载体', 1]]);
    const found = (
      await main.get<{ records: (Row & { label: string; formId: number })[] }>(
        '/api/form/findElementList?logicalName=t_sync_margin',
      )
    ).body.resultObject.records;
    expect(found.map((r) => [r.logicalName, r.label, r.syncFlag, r.formId])).toEqual([
      ['t_sync_margin', '公共-切缘距离', 1, labForm[0]!.id],
    ]);
    // The lab's page now shows the control, as the workflow designer reads it.
    const cols = await main.get<string>(`/api/form/findFormColsById?id=${labForm[0]!.id}`);
    expect(JSON.parse(cols.body.resultObject)).toEqual({ t_sync_margin: '公共-切缘距离' });
  });

  it('distributes an element to the chosen labs only, and never to an only-lab user asking for it', async () => {
    const group = await as('baseadmin');
    const form = (
      await group.post<Row>('/api/form/createForm', {
        pageName: '测试-公共元素载体',
        formCode: 'T_PUBLIC_HOST',
        category: 2,
      })
    ).body.resultObject;
    const element = (
      await group.post<Row>('/api/form/createElement', {
        formId: form.id,
        logicalName: 't_public_weight',
        label: '公共-标本重量',
        controlType: 'input',
      })
    ).body.resultObject;
    const issued = await group.post<{ copied: number }>('/api/form/issueElement', {
      ids: String(element.id),
      orgIds: '3',
    });
    expect(issued.body).toMatchObject({ code: 20000, data: { copied: 1 } });
    const found = async (account: string) =>
      (
        await (await as(account)).get<Page>('/api/form/findElementList?logicalName=t_public_weight')
      ).body.resultObject.records.map((r) => r.syncFlag);
    expect(await found('lab3admin')).toEqual([1]);
    expect(await found('lab2admin')).toEqual([]);
    expect((await (await as('onlyadmin')).post('/api/form/syncElement', { ids: String(element.id) })).status).toBe(403);
    expect(await found('onlyadmin')).toEqual([]);
  });
});

describe('input helper list: find (spec 7.6)', () => {
  it("pages and filters the laboratory's phrases, and refuses another laboratory's", async () => {
    const lab = await as('admin');
    for (const name of ['测试-查找甲', '测试-查找乙', '测试-查找丙']) {
      expect(
        (await lab.post('/api/inputhelper/upsert', { name, useType: 'diagnosis', content: `${name}的内容` })).status,
      ).toBe(200);
    }
    const first = await lab.get<{ records: { name: string }[]; total: number }>(
      `/api/inputhelper/find?name=${encodeURIComponent('测试-查找')}&page=1&size=2`,
    );
    expect(first.status).toBe(200);
    expect(first.body.resultObject.total).toBe(3);
    expect(first.body.resultObject.records).toHaveLength(2);
    const second = await lab.get<{ records: { name: string }[] }>(
      `/api/inputhelper/find?name=${encodeURIComponent('测试-查找')}&page=2&size=2`,
    );
    const names = [...first.body.resultObject.records, ...second.body.resultObject.records].map((r) => r.name).sort();
    expect(names).toEqual(['测试-查找丙', '测试-查找乙', '测试-查找甲'].sort());
    expect((await lab.get('/api/inputhelper/find?orgId=2')).status).toBe(403);
    expect(
      (await (await as('lab2admin')).get<Page>(`/api/inputhelper/find?name=${encodeURIComponent('测试-查找')}`)).body
        .resultObject.total,
    ).toBe(0);
  });
});

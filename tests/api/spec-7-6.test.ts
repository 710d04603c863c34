import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';

/**
 * The remaining calls of spec 7.6: the specimen characters' public data under their spec names, the
 * picture of a form page, the picture of an input-helper node.
 */
let server: TestServer;
const as = async (account: string) => api(server.url, await tokenFor(server.url, account, DEMO_PASSWORD));

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.dispose());

/** A 1×1 PNG, and the same picture as a data URL. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const PNG_URL = `data:image/png;base64,${PNG.toString('base64')}`;
/** A 1×1 GIF. */
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

/** A multipart POST with the given fields and one file. */
async function multipart(
  path: string,
  account: string,
  fields: Record<string, string>,
  file: Buffer,
  fileName: string,
) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  form.set('file', new Blob([new Uint8Array(file)]), fileName);
  const res = await fetch(`${server.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${await tokenFor(server.url, account, DEMO_PASSWORD)}` },
    body: form,
  });
  return {
    status: res.status,
    body: (await res.json()) as {
      resultCode: number;
      resultMessage: string;
      resultObject: Record<string, unknown>;
    },
  };
}

interface Character {
  id: number;
  code: string;
  name: string;
  syncFlag: number;
}

describe('specimen characters: subLaboratoryImport and dataSynchronization (spec 7.6)', () => {
  const base = '/api/resources/specimenCharacter';
  const testRows = async (account: string) =>
    (
      await (await as(account)).get<{ records: Character[] }>(`${base}?code=TSTX&sort=code,asc`)
    ).body.resultObject.records.map((r) => [r.code, r.name, r.syncFlag]);
  let sourceId = 0;

  beforeAll(async () => {
    const group = await as('baseadmin');
    sourceId = (await group.post<Character>(base, { code: 'TSTX1', name: '测试轻度溶血', acceptable: true })).body
      .resultObject.id;
  });

  it('lets a sub lab import the characters it picks, and refuses it the synchronisation of all', async () => {
    const lab2 = await as('lab2admin');
    expect((await lab2.post('/api/specimen/character/subLaboratoryImport', { ids: '' })).body.resultMessage).toBe(
      '请先勾选数据进行操作',
    );
    const res = await lab2.post<{ copied: number }>('/api/specimen/character/subLaboratoryImport', {
      ids: String(sourceId),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ resultCode: 200, resultObject: { copied: 1 } });
    expect(await testRows('lab2admin')).toEqual([['TSTX1', '测试轻度溶血', 1]]);
    expect((await lab2.post('/api/specimen/character/dataSynchronization')).status).toBe(403);
  });

  it('lets the main lab synchronise every character, and confirm an update once the base changes one', async () => {
    const main = await as('admin');
    expect(
      (await main.post<{ copied: number }>('/api/specimen/character/dataSynchronization')).body.resultObject.copied,
    ).toBeGreaterThan(1);
    expect(await testRows('admin')).toEqual([['TSTX1', '测试轻度溶血', 1]]);
    const group = await as('baseadmin');
    const source = (await group.get<Character>(`${base}/${sourceId}`)).body.resultObject;
    await group.put(`${base}/${sourceId}`, { ...source, name: '测试中度溶血' });
    expect(await testRows('admin')).toEqual([['TSTX1', '测试轻度溶血', 2]]);
    const copy = (await main.get<{ records: Character[] }>(`${base}?code=TSTX`)).body.resultObject.records[0]!;
    expect(
      (await main.post('/api/specimen/character/dataSynchronization', { ids: String(copy.id), syncFlag: 2 })).status,
    ).toBe(200);
    expect(await testRows('admin')).toEqual([['TSTX1', '测试中度溶血', 1]]);
    const log = await main.get<{ records: { action: string; resource: string }[] }>(
      '/api/log/getLogList?resource=specimenCharacter',
    );
    expect(log.body.resultObject.records.filter((r) => r.action === 'publicData').length).toBe(2);
  });

  it('never lets an only-lab or an editor take public characters', async () => {
    expect(
      (await (await as('onlyadmin')).post('/api/specimen/character/subLaboratoryImport', { ids: [sourceId] })).status,
    ).toBe(403);
    expect((await (await as('editor')).post('/api/specimen/character/dataSynchronization')).status).toBe(403);
    expect(await testRows('onlyadmin')).toEqual([]);
    expect(await testRows('lab3admin')).toEqual([]);
  });
});

interface FormImage {
  formId: number;
  testItemId: string | null;
  image: string;
  updatedBy: string;
}

describe('the picture of a form page: saveImage and getFormImage (spec 7.6)', () => {
  let formId = 0;
  beforeAll(async () => {
    formId = (await (await as('admin')).get<{ records: { id: number }[] }>('/api/resources/form?size=1')).body
      .resultObject.records[0]!.id;
  });

  it('saves the picture of a page for a test item and reads it back; another item has none', async () => {
    const admin = await as('admin');
    const saved = await admin.post<FormImage>('/api/form/saveImage', {
      id: formId,
      testItemId: 'TI-100',
      image: PNG_URL,
    });
    expect(saved.status).toBe(200);
    expect(saved.body.resultObject).toMatchObject({
      formId,
      testItemId: 'TI-100',
      image: PNG_URL,
      updatedBy: '系统管理员',
    });
    const read = await admin.get<FormImage>(`/api/form/getFormImage?id=${formId}&testItemId=TI-100`);
    expect(read.body.resultObject.image).toBe(PNG_URL);
    expect(
      (await admin.get<FormImage | null>(`/api/form/getFormImage?id=${formId}&testItemId=TI-200`)).body.resultObject,
    ).toBeNull();
  });

  it('replaces the picture when a file comes in a multipart form, and logs what changed without the picture', async () => {
    const res = await multipart(
      '/api/form/saveImage',
      'admin',
      { formId: String(formId), testItemId: 'TI-100' },
      GIF,
      'sketch.gif',
    );
    expect(res.status).toBe(200);
    const admin = await as('admin');
    const read = (await admin.get<FormImage>(`/api/form/getFormImage?formId=${formId}&testItemId=TI-100`)).body
      .resultObject;
    expect(read.image).toBe(`data:image/gif;base64,${GIF.toString('base64')}`);
    const log = await admin.get<{
      records: { action: string; before: { type: string }; after: { type: string; bytes: number } }[];
    }>('/api/log/getLogList?resource=formImage');
    expect(log.body.resultObject.records[0]).toMatchObject({
      action: 'update',
      before: { type: 'image/png' },
      after: { type: 'image/gif', bytes: GIF.length },
    });
    expect(JSON.stringify(log.body.resultObject.records)).not.toContain('base64');
  });

  it('refuses what is not a picture, a picture too large, and pages of another laboratory, changing nothing', async () => {
    const admin = await as('admin');
    const fake = await admin.post('/api/form/saveImage', {
      id: formId,
      testItemId: 'TI-100',
      image: `data:image/png;base64,${Buffer.from('not a picture').toString('base64')}`,
    });
    expect(fake.status).toBe(400);
    expect(fake.body.resultMessage).toBe('图片格式不正确，仅支持 PNG、JPEG、GIF、WebP、BMP');
    const huge = Buffer.concat([PNG, Buffer.alloc(600 * 1024)]);
    const large = await multipart(
      '/api/form/saveImage',
      'admin',
      { id: String(formId), testItemId: 'TI-100' },
      huge,
      'big.png',
    );
    expect(large.status).toBe(400);
    expect(large.body.resultMessage).toBe('图片不能大于 512 KB');
    expect((await admin.post('/api/form/saveImage', { id: formId })).body.resultMessage).toBe('请选择一张图片');
    const lab2 = await as('lab2admin');
    expect((await lab2.post('/api/form/saveImage', { id: formId, testItemId: 'TI-100', image: PNG_URL })).status).toBe(
      404,
    );
    expect((await lab2.get(`/api/form/getFormImage?id=${formId}&testItemId=TI-100`)).status).toBe(404);
    const read = (await admin.get<FormImage>(`/api/form/getFormImage?id=${formId}&testItemId=TI-100`)).body
      .resultObject;
    expect(read.image).toBe(`data:image/gif;base64,${GIF.toString('base64')}`);
  });
});

interface Node {
  id: number;
  name: string;
  image: string | null;
  syncFlag?: number;
}

describe('the picture of an input-helper node: upsertDictImg and queryNodeImgList (spec 7.6)', () => {
  const base = '/api/resources/inputHelper';

  it("sets a node's picture from a multipart upload and lists it as the node's pictures", async () => {
    const admin = await as('admin');
    const node = (await admin.get<{ records: Node[] }>(`${base}?size=1`)).body.resultObject.records[0]!;
    expect((await admin.post<Node[]>('/api/inputhelper/queryNodeImgList', { id: node.id })).body.resultObject).toEqual(
      [],
    );
    const res = await multipart('/api/inputhelper/upsertDictImg', 'admin', { id: String(node.id) }, PNG, 'cell.png');
    expect(res.status).toBe(200);
    const listed = (await admin.post<Node[]>('/api/inputhelper/queryNodeImgList', { id: node.id })).body.resultObject;
    expect(listed.map((n) => [n.id, n.name, n.image])).toEqual([[node.id, node.name, PNG_URL]]);
    expect(
      (await admin.post<Node[]>(`/api/inputhelper/queryNodeImgList?id=${node.id}`)).body.resultObject,
    ).toHaveLength(1);
    const log = await admin.get<{ records: { action: string; recordId: string }[] }>(
      '/api/log/getLogList?resource=inputHelper',
    );
    expect(log.body.resultObject.records[0]).toMatchObject({ action: 'update', recordId: String(node.id) });
  });

  it('refuses what is not a picture and nodes of another laboratory, changing nothing', async () => {
    const admin = await as('admin');
    const node = (await admin.get<{ records: Node[] }>(`${base}?size=2`)).body.resultObject.records[1]!;
    const bad = await multipart(
      '/api/inputhelper/upsertDictImg',
      'admin',
      { id: String(node.id) },
      Buffer.from('%PDF-1.4 not a picture'),
      'x.png',
    );
    expect(bad.status).toBe(400);
    expect(bad.body.resultMessage).toBe('图片格式不正确，仅支持 PNG、JPEG、GIF、WebP、BMP');
    const other = await multipart('/api/inputhelper/upsertDictImg', 'onlyadmin', { id: String(node.id) }, PNG, 'x.png');
    expect(other.status).toBe(404);
    expect((await admin.get<Node>(`${base}/${node.id}`)).body.resultObject.image ?? null).toBeNull();
  });

  it("flags the labs' copies when the base organisation sets a public node's picture", async () => {
    const group = await as('baseadmin');
    const source = (await group.get<{ records: Node[] }>(`${base}?size=1`)).body.resultObject.records[0]!;
    const main = await as('admin');
    const copyOf = async () =>
      (
        await main.get<{ records: Node[] }>(`${base}?name=${encodeURIComponent(source.name)}`)
      ).body.resultObject.records.find((n) => n.name === source.name)!;
    expect((await copyOf()).syncFlag).toBe(1);
    expect((await group.post('/api/inputhelper/upsertDictImg', { id: source.id, image: PNG_URL })).status).toBe(200);
    expect((await copyOf()).syncFlag).toBe(2);
  });
});

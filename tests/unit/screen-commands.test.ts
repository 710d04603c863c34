import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { http as mock, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { commandHandler, fileNameOf, fillPath, registerCommand } from '../../src/web/screens/commands';
import { commandFormScreen } from '../../src/web/screens/CommandDialog';
import { validateRecord } from '../../src/shared/screens/validate';
import { keepQuery } from '../../src/web/screens/list/useListController';
import { commandProblems } from '../../src/server/kernel/screens/commands';
import type { ActionDef, ScreenSchema } from '../../src/shared/screens/fields';

const label = { 'zh-CN': '评价', 'en-US': 'Evaluate' };
const screen: ScreenSchema = {
  schemaVersion: 2,
  id: 'qc-result',
  title: label,
  resource: { name: 'qcResult' },
  fields: [
    { key: 'code', type: 'text', label, sortable: true },
    { key: 'status', type: 'text', label },
  ],
  filters: ['code', 'status'],
};
const row = (id: number, code: string) => ({ id, version: 1, code });

const calls: { method: string; path: string; body: unknown; query?: string }[] = [];
const saved: { name: string; size: number }[] = [];
const server = setupServer(
  mock.get('*/api/files/slip', ({ request }) => {
    calls.push({ method: 'GET', path: '/api/files/slip', body: undefined, query: new URL(request.url).search });
    return new HttpResponse(new Uint8Array([37, 80, 68, 70]), {
      headers: {
        'content-type': 'application/pdf',
        'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent('交接单_JJ1.pdf')}`,
      },
    });
  }),
  mock.post('*/api/rules/:id/issue', ({ params }) =>
    HttpResponse.json({
      resultCode: 200,
      resultMessage: 'ok',
      resultObject: { barcodes: [`26051200${String(params.id)}1`, `26051200${String(params.id)}2`], status: 'out' },
    }),
  ),
  mock.post('*/api/files/refused', () =>
    HttpResponse.json({ resultCode: 400, resultMessage: '接收人密码错误', resultObject: null }, { status: 400 }),
  ),
  mock.all('*/api/*', async ({ request }) => {
    const text = await request.text();
    const url = new URL(request.url);
    calls.push({
      method: request.method,
      path: url.pathname,
      body: text ? JSON.parse(text) : undefined,
      ...(url.search && { query: url.search }),
    });
    return HttpResponse.json({ resultCode: 200, resultMessage: 'ok', resultObject: null });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  calls.length = 0;
  saved.length = 0;
});
afterAll(() => server.close());

describe('named commands of a screen', () => {
  it('fills an endpoint from the row, encoding each value', () => {
    expect(fillPath('/api/qc/results/{id}/evaluate', row(7, 'a'))).toBe('/api/qc/results/7/evaluate');
    expect(fillPath('/api/x/{code}', row(1, 'A/B 1'))).toBe('/api/x/A%2FB%201');
  });

  it('calls a row endpoint once per row, and an endpoint without placeholders once with the ids', async () => {
    const perRow: ActionDef = { kind: 'command', name: 'evaluate', endpoint: '/api/qc/results/{id}/evaluate' };
    await commandHandler(perRow)!({ screen, action: perRow, records: [row(3, 'a'), row(4, 'b')], locale: 'zh-CN' });
    const batch: ActionDef = {
      kind: 'command',
      name: 'approveAll',
      endpoint: '/api/qc/results/approve',
      method: 'PUT',
    };
    await commandHandler(batch)!({ screen, action: batch, records: [row(3, 'a'), row(4, 'b')], locale: 'zh-CN' });
    expect(calls).toEqual([
      { method: 'POST', path: '/api/qc/results/3/evaluate', body: undefined },
      { method: 'POST', path: '/api/qc/results/4/evaluate', body: undefined },
      { method: 'PUT', path: '/api/qc/results/approve', body: { ids: [3, 4] } },
    ]);
  });

  it('runs a command registered in TypeScript by its name before any endpoint, and has none for an unknown name', async () => {
    const seen: number[] = [];
    const unregister = registerCommand('printLabels', async ({ records }) => {
      seen.push(...records.map((r) => r.id));
      return '已打印';
    });
    const action: ActionDef = { kind: 'command', name: 'printLabels', endpoint: '/api/never' };
    expect(await commandHandler(action)!({ screen, action, records: [row(9, 'x')], locale: 'zh-CN' })).toBe('已打印');
    expect(seen).toEqual([9]);
    expect(calls).toEqual([]);
    unregister();
    expect(commandHandler({ kind: 'command', name: 'printLabels' })).toBeUndefined();
  });
});

describe('a command with a dialog and a file answer (action.fields, download)', () => {
  beforeAll(() => {
    // The browser's save: the link the command clicks, its name and its file.
    URL.createObjectURL = (blob: Blob) => `blob:${blob.size}`;
    URL.revokeObjectURL = () => undefined;
    HTMLAnchorElement.prototype.click = function (this: HTMLAnchorElement) {
      saved.push({ name: this.download, size: Number(this.href.split(':').pop()) });
    };
  });

  it("sends the dialog's values in the body of a POST, beside the ids of a batch", async () => {
    const perRow: ActionDef = { kind: 'command', endpoint: '/api/x/confirm?recordId={id}' };
    await commandHandler(perRow)!({
      screen,
      action: perRow,
      records: [row(5, 'a')],
      locale: 'zh-CN',
      values: { userAccount: 'r1', passwd: 'p' },
    });
    const batch: ActionDef = { kind: 'command', endpoint: '/api/x/confirmAll' };
    await commandHandler(batch)!({
      screen,
      action: batch,
      records: [row(5, 'a'), row(6, 'b')],
      locale: 'zh-CN',
      values: { userAccount: 'r1' },
    });
    expect(calls).toEqual([
      { method: 'POST', path: '/api/x/confirm', query: '?recordId=5', body: { userAccount: 'r1', passwd: 'p' } },
      { method: 'POST', path: '/api/x/confirmAll', body: { ids: [5, 6], userAccount: 'r1' } },
    ]);
  });

  it("sends a GET's inputs in the query: the ids as one value, the list's filters from the toolbar", async () => {
    const batch: ActionDef = { kind: 'command', endpoint: '/api/x/summary', method: 'GET' };
    await commandHandler(batch)!({ screen, action: batch, records: [row(5, 'a'), row(6, 'b')], locale: 'zh-CN' });
    await commandHandler(batch)!({
      screen,
      action: batch,
      records: [],
      locale: 'zh-CN',
      listQuery: { status: 'open', sort: 'code,asc' },
    });
    expect(calls.map((c) => c.query)).toEqual(['?ids=5,6', '?status=open&sort=code,asc']);
  });

  it("saves a file answer under the name the server gives, takes a JSON answer as done, and reads a refusal's words", async () => {
    const print: ActionDef = { kind: 'command', endpoint: '/api/files/slip', method: 'GET', download: true };
    await commandHandler(print)!({ screen, action: print, records: [], locale: 'zh-CN' });
    expect(saved).toEqual([{ name: '交接单_JJ1.pdf', size: 4 }]);
    const json: ActionDef = { kind: 'command', endpoint: '/api/x/confirm', download: true };
    await commandHandler(json)!({ screen, action: json, records: [], locale: 'zh-CN', values: { isPrint: false } });
    expect(saved).toHaveLength(1);
    const refused: ActionDef = { kind: 'command', endpoint: '/api/files/refused', download: true };
    const error = await commandHandler(refused)!({ screen, action: refused, records: [], locale: 'zh-CN' }).catch(
      (e: unknown) => e,
    );
    expect((error as { response: { data: { resultMessage: string } } }).response.data.resultMessage).toBe(
      '接收人密码错误',
    );
    expect(fileNameOf('attachment; filename="a b.xlsx"', 'x')).toBe('a b.xlsx');
    expect(fileNameOf(undefined, 'x')).toBe('x');
  });

  it("checks the dialog's inputs with the record validation of its declared fields", () => {
    const action: ActionDef = {
      kind: 'command',
      endpoint: '/api/x/confirm',
      fields: [
        { key: 'userAccount', type: 'text', label: { 'zh-CN': '接收人账号', 'en-US': 'Account' }, required: true },
        {
          key: 'temperatureC',
          type: 'number',
          label: { 'zh-CN': '到达温度', 'en-US': 'Temperature' },
          minimum: -80,
          maximum: 45,
        },
      ],
    };
    const form = commandFormScreen(screen, action);
    expect(
      validateRecord(form, { temperatureC: 60 }, 'zh-CN')
        .map((e) => e.field)
        .sort(),
    ).toEqual(['temperatureC', 'userAccount']);
    expect(validateRecord(form, { userAccount: 'r1', temperatureC: 4 }, 'zh-CN')).toEqual([]);
  });
});

describe('what a command answers for the user to see (issue 25)', () => {
  it('names the files it saved and reads the values action.result names, as the fields read', async () => {
    const withStatus: ScreenSchema = {
      ...screen,
      fields: [
        {
          key: 'status',
          type: 'enum',
          label: { 'zh-CN': '质控状态', 'en-US': 'QC status' },
          options: [{ value: 'out', label: { 'zh-CN': '失控', 'en-US': 'Out of control' } }],
        },
      ],
    };
    const issue: ActionDef = {
      kind: 'command',
      endpoint: '/api/rules/{id}/issue',
      result: [
        { field: 'barcodes', label: { 'zh-CN': '条码号', 'en-US': 'Barcodes' } },
        { field: 'status' },
        { field: 'absent' },
      ],
    };
    expect(
      await commandHandler(issue)!({ screen: withStatus, action: issue, records: [row(7, 'a')], locale: 'zh-CN' }),
    ).toEqual({
      values: [
        { label: '条码号', value: '2605120071, 2605120072' },
        { label: '质控状态', value: '失控' },
      ],
      files: [],
    });
    const print: ActionDef = { kind: 'command', endpoint: '/api/files/slip', method: 'GET', download: true };
    expect(await commandHandler(print)!({ screen, action: print, records: [], locale: 'zh-CN' })).toEqual({
      values: [],
      files: ['交接单_JJ1.pdf'],
    });
  });
});

describe('a screen command on the server', () => {
  const routes = new Set(['POST /api/qc/results/:id/evaluate', 'DELETE /api/resources/:resource/:id']);
  const hasRoute = (method: string, url: string) => routes.has(`${method} ${url}`);
  const withRow = (action: ActionDef): ScreenSchema => ({ ...screen, actions: { row: [action] } });

  it('must name a call the server implements under /api/', () => {
    expect(
      commandProblems(withRow({ kind: 'command', name: 'e', endpoint: '/api/qc/results/{id}/evaluate' }), hasRoute),
    ).toEqual([]);
    expect(
      commandProblems(
        withRow({ kind: 'command', name: 'd', endpoint: '/api/resources/reagent/{id}', method: 'DELETE' }),
        hasRoute,
      ),
    ).toEqual([]);
    expect(
      commandProblems(withRow({ kind: 'command', name: 'e', endpoint: '/api/qc/results/{id}/judge' }), hasRoute),
    ).toEqual([{ path: '/actions/row/0/endpoint', message: 'the server has no POST /api/qc/results/{id}/judge' }]);
    expect(
      commandProblems(withRow({ kind: 'command', name: 'x', endpoint: 'https://example.com/hook' }), hasRoute),
    ).toEqual([{ path: '/actions/row/0/endpoint', message: 'a command endpoint must be a call under /api/' }]);
  });

  it('lets an import name the call that takes its sheet, which must exist too', () => {
    const withImport = (endpoint?: string): ScreenSchema => ({
      ...screen,
      actions: { toolbar: [{ kind: 'import', ...(endpoint && { endpoint }) }] },
    });
    expect(commandProblems(withImport(), hasRoute)).toEqual([]);
    expect(commandProblems(withImport('/api/qc/results/{id}/evaluate'), hasRoute)).toEqual([]);
    expect(commandProblems(withImport('/api/data/input/upLoadNothing'), hasRoute)).toEqual([
      { path: '/actions/toolbar/0/endpoint', message: 'the server has no POST /api/data/input/upLoadNothing' },
    ]);
  });

  it('checks that a worksheet saves to a call the server has', () => {
    const sheet = (save: string): ScreenSchema => ({ ...screen, list: { worksheet: { field: 'name', save } } });
    expect(commandProblems(sheet('/api/qc/results/{id}/evaluate'), hasRoute)).toEqual([]);
    expect(commandProblems(sheet('/api/results/sheet'), hasRoute)).toEqual([
      { path: '/list/worksheet/save', message: 'the server has no POST /api/results/sheet' },
    ]);
  });
});

describe('a list query when its schema changes', () => {
  it('keeps filters and sort of fields that remain, and drops the rest', () => {
    const params = {
      page: 3,
      size: 50,
      sort: { field: 'code', order: 'desc' as const },
      filters: { code: 'A', status: 'ok' },
    };
    expect(keepQuery(screen, params)).toBe(params);
    const narrower: ScreenSchema = {
      ...screen,
      fields: [{ key: 'status', type: 'text', label }],
      filters: ['status'],
      list: { defaultSort: { field: 'status', order: 'asc' } },
    };
    expect(keepQuery(narrower, params)).toEqual({
      page: 3,
      size: 50,
      sort: { field: 'status', order: 'asc' },
      filters: { status: 'ok' },
    });
  });
});

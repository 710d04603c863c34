import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook, screen as dom, waitFor } from '@testing-library/react';
import { http as mock, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import type { ScreenSchema } from '../../../shared/screens/fields';
import { box, shown, WithFeedback } from '../../testing/feedback';
import type { ListParams } from '../dataProvider';
import { useImportExport } from './useImportExport';

const label = (zh: string) => ({ 'zh-CN': zh, 'en-US': zh });
const screen: ScreenSchema = {
  schemaVersion: 2,
  id: 'inspection-item',
  title: label('检验项目'),
  resource: { name: 'inspectionItem' },
  fields: [{ key: 'code', type: 'text', label: label('编码') }],
};
const params: ListParams = { page: 3, size: 50, sort: { field: 'code', order: 'asc' }, filters: { code: 'XH' } };

const exported: URLSearchParams[] = [];
let refuse: 'none' | 'export' | 'rows' = 'none';
const server = setupServer(
  mock.get('*/api/resources/inspectionItem/export.xlsx', ({ request }) => {
    exported.push(new URL(request.url).searchParams);
    if (refuse === 'export')
      return HttpResponse.json({ resultCode: 500, resultMessage: 'x', resultObject: null }, { status: 500 });
    return new HttpResponse(new Uint8Array([80, 75, 3, 4]), {
      headers: { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
    });
  }),
  mock.post('*/api/resources/inspectionItem/import', () =>
    refuse === 'rows'
      ? HttpResponse.json(
          {
            resultCode: 400,
            resultMessage: '导入失败',
            resultObject: { errors: [{ message: '第 2 行：编码不能为空' }, { message: '第 5 行：编码重复' }] },
          },
          { status: 400 },
        )
      : HttpResponse.json({ resultCode: 200, resultMessage: 'ok', resultObject: { imported: 3 } }),
  ),
);

/** The names files were saved under (the download link's name when it is clicked). */
const saved: string[] = [];
beforeAll(() => {
  server.listen({ onUnhandledRequest: 'error' });
  vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:sheet');
  vi.spyOn(URL, 'revokeObjectURL').mockReturnValue(undefined);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
});
afterEach(() => {
  cleanup();
  exported.length = 0;
  saved.length = 0;
  refuse = 'none';
});
afterAll(() => {
  server.close();
  vi.restoreAllMocks();
});

function setup() {
  const reload = vi.fn();
  const hook = renderHook(() => useImportExport(screen, { params, reload }), { wrapper: WithFeedback });
  return { ...hook, reload };
}

describe('export', () => {
  it("saves the list's query as <screen title>.xlsx, busy meanwhile", async () => {
    const { result } = setup();
    let done!: Promise<void>;
    act(() => {
      done = result.current.exportList();
    });
    expect(result.current.busy).toBe(true);
    await act(() => done);
    expect(saved).toEqual(['检验项目.xlsx']);
    expect(Object.fromEntries(exported[0]!)).toMatchObject({ sort: 'code,asc', code: 'XH' });
    expect(result.current.busy).toBe(false);
  });

  it('says 导出失败 when the server refuses, saving nothing', async () => {
    refuse = 'export';
    const { result } = setup();
    await act(() => result.current.exportList());
    await shown('导出失败');
    expect(saved).toEqual([]);
  });
});

describe('import', () => {
  const sheet = () => new File([new Uint8Array([80, 75])], '检验项目.xlsx');

  it('says how many rows came in and reloads', async () => {
    const { result, reload } = setup();
    act(() => result.current.importFile(sheet()));
    expect(result.current.busy).toBe(true);
    await shown('成功导入 3 条');
    expect(reload).toHaveBeenCalledOnce();
    await waitFor(() => expect(result.current.busy).toBe(false));
  });

  it('lists what is wrong, row by row, when the sheet is refused', async () => {
    refuse = 'rows';
    const { result, reload } = setup();
    act(() => result.current.importFile(sheet()));
    const refused = await box('第 2 行：编码不能为空');
    expect(refused.textContent).toContain('导入失败');
    expect(dom.getByText('第 5 行：编码重复')).toBeDefined();
    expect(reload).not.toHaveBeenCalled();
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { http as mock, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { LoginPage } from '../../src/web/auth/LoginPage';
import { session, clearToken } from '../../src/web/auth/session';

const received: URLSearchParams[] = [];
const ok = (resultObject: unknown) => HttpResponse.json({ resultCode: 200, resultMessage: 'success', resultObject });
const title = { 'zh-CN': '检验项目', 'en-US': 'Items' };
let roleList = [{ id: 1, name: 'admin', code: 'admin', menuIds: '2,20201' }];
const server = setupServer(
  // The page-entry calls (spec 4), made by the login page as soon as the token is in.
  mock.get('*/api/dictionary/all', () => ok([])),
  mock.get('*/api/user/login', () =>
    ok({
      user: { id: 7, userAccount: 'admin', userName: '管理员', avatar: null, introduction: null, orgId: 1 },
      organization: { id: 1, name: '中心实验室', isMainLab: 1, isOnlyLab: 0 },
      roleList,
      permissionList: [],
      disabledMenu: '',
      usePlace: true,
      definitionBarcodeRule: 2,
      passwordFlag: 0,
    }),
  ),
  mock.get('*/api/ui/menu', () =>
    ok({
      routes: [
        { path: '/dashboard', meta: { title: { 'zh-CN': '首页', 'en-US': 'Home' }, affix: true } },
        { path: '/lab', meta: { id: 2, title }, children: [{ path: 'items', meta: { id: 20201, title } }] },
      ],
      denied: [],
    }),
  ),
  mock.get('*/api/organization/getUserLabType', () => ok({ isOnlyLab: 0, isMainLab: 1 })),
  mock.post('*/oauth/token', async ({ request }) => {
    const form = new URLSearchParams(await request.text());
    received.push(form);
    if (form.get('username') === 'admin' && form.get('password') === 'Right@2026') {
      return HttpResponse.json({ access_token: 'tok-123', token_type: 'bearer', expires_in: 60, principal: { id: 7 } });
    }
    return HttpResponse.json({ error: 'invalid_grant', error_description: '用户名或密码错误' }, { status: 400 });
  }),
);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  cleanup();
  clearToken();
  received.length = 0;
  roleList = [{ id: 1, name: 'admin', code: 'admin', menuIds: '2,20201' }];
});
afterAll(() => server.close());

function renderLogin(initial = '/login') {
  const router = createMemoryRouter(
    [
      { path: '/login', element: <LoginPage /> },
      { path: '/dashboard', element: <p>dashboard page</p> },
      { path: '/lab/items', element: <p>items page</p> },
    ],
    { initialEntries: [initial] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

async function submit(username: string, password: string) {
  fireEvent.change(screen.getByPlaceholderText('用户名'), { target: { value: username } });
  fireEvent.change(screen.getByPlaceholderText('密码'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
}

describe('login page', () => {
  it('asks for both fields before calling the server', async () => {
    renderLogin();
    fireEvent.click(screen.getByRole('button', { name: /登\s*录/ }));
    expect(await screen.findByText('请输入用户名')).toBeTruthy();
    expect(await screen.findByText('请输入密码')).toBeTruthy();
    expect(received).toHaveLength(0);
  });

  it("shows the server's message for a bad password and stores no token", async () => {
    renderLogin();
    await submit('admin', 'nope');
    expect(await screen.findByText('用户名或密码错误')).toBeTruthy();
    expect(session.token).toBeUndefined();
  });

  it('sends the trimmed username with the password grant, stores the token and returns to the page asked for', async () => {
    const router = renderLogin('/login?redirect=%2Flab%2Fitems');
    await submit('  admin ', 'Right@2026');
    await waitFor(() => expect(router.state.location.pathname).toBe('/lab/items'));
    expect(received[0]!.get('username')).toBe('admin');
    expect(received[0]!.get('grant_type')).toBe('password');
    expect(received[0]!.get('scope')).toBe('all');
    expect(session.token).toBe('tok-123');
    expect(document.cookie).toContain('lims-token-7=tok-123');
  });

  it('shows a refusal of the page entry on the login page and stays there without a token', async () => {
    roleList = [];
    const router = renderLogin();
    await submit('admin', 'Right@2026');
    expect(
      await screen.findByText('This account has no role assigned, please assign one before logging in'),
    ).toBeTruthy();
    expect(router.state.location.pathname).toBe('/login');
    expect(session.token).toBeUndefined();
  });
});

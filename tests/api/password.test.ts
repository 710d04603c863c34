import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, login, tokenFor } from '../support/client';
import argon2 from 'argon2';
import { startInProcess } from '../support/in-process';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server?.dispose());

describe('change password (spec 2.5, 5)', () => {
  it.each([
    [{ password: '', newPassword: 'New@2026pw', confirmPassword: 'New@2026pw' }, '请输入原密码'],
    [{ password: 'x'.repeat(20), newPassword: 'New@2026pw', confirmPassword: 'New@2026pw' }, '输入长度需小于20'],
    [{ password: DEMO_PASSWORD, newPassword: '', confirmPassword: '' }, '请输入密码'],
    [
      { password: DEMO_PASSWORD, newPassword: 'abcdefgh', confirmPassword: 'abcdefgh' },
      '密码是数字、大小写字母、特殊字符三种及以上组合,且长度8-15位',
    ],
    [
      { password: DEMO_PASSWORD, newPassword: 'Abc@1234567890xy', confirmPassword: 'Abc@1234567890xy' },
      '密码是数字、大小写字母、特殊字符三种及以上组合,且长度8-15位',
    ],
    [{ password: DEMO_PASSWORD, newPassword: 'New@2026pw', confirmPassword: '' }, '请再次输入密码'],
    [{ password: DEMO_PASSWORD, newPassword: 'New@2026pw', confirmPassword: 'New@2026px' }, '两次输入密码不一致!'],
    [{ password: 'Wrong@2026', newPassword: 'New@2026pw', confirmPassword: 'New@2026pw' }, '原密码错误'],
  ])('refuses %j with "%s" and changes nothing', async (form, message) => {
    const token = await tokenFor(server.url, 'editor', DEMO_PASSWORD);
    const res = await api(server.url, token).post('/api/user/changePassword', form);
    expect(res.status).toBe(400);
    expect(res.body.resultMessage).toBe(message);
    expect((await api(server.url, token).get('/api/user/me')).status).toBe(200);
  });

  it('speaks English when asked', async () => {
    const token = await tokenFor(server.url, 'editor', DEMO_PASSWORD);
    const res = await api(server.url, token, 'en-US').post('/api/user/changePassword', {
      password: DEMO_PASSWORD,
      newPassword: 'New@2026pw',
      confirmPassword: 'other',
    });
    expect(res.body.resultMessage).toBe('The two passwords do not match!');
  });

  it('changes the password, clears passwordFlag and ends every session of the account', async () => {
    const base = api(server.url, await tokenFor(server.url, 'baseadmin', DEMO_PASSWORD));
    const created = await base.post<{ id: number }>('/api/user', {
      userAccount: 'newstaff',
      userName: '新员工',
      orgId: 0,
      password: 'First@2026',
    });
    expect(created.status).toBe(200);
    const first = await login(server.url, 'newstaff', 'First@2026');
    expect((first.body.principal as { passwordFlag: number }).passwordFlag).toBe(1);
    const token = first.body.access_token!;
    const other = await tokenFor(server.url, 'newstaff', 'First@2026');

    const res = await api(server.url, token).post('/api/user/changePassword', {
      password: 'First@2026',
      newPassword: 'Mine#2026',
      confirmPassword: 'Mine#2026',
    });
    expect(res.status).toBe(200);
    expect(res.body.resultMessage).toBe('密码修改成功');
    expect((await api(server.url, token).get('/api/user/me')).status).toBe(401);
    expect((await api(server.url, other).get('/api/user/me')).status).toBe(401);

    expect((await login(server.url, 'newstaff', 'First@2026')).status).toBe(400);
    const again = await login(server.url, 'newstaff', 'Mine#2026');
    expect(again.status).toBe(200);
    expect((again.body.principal as { passwordFlag: number }).passwordFlag).toBe(0);
  });

  it("accepts the handover screens' query-string form of the call", async () => {
    const token = await tokenFor(server.url, 'lab2admin', DEMO_PASSWORD);
    const query = new URLSearchParams({
      password: DEMO_PASSWORD,
      newPassword: 'Hand@2026',
      confirmPassword: 'Hand@2026',
    });
    const res = await api(server.url, token).post(`/api/handover/changePassword?${query}`);
    expect(res.status).toBe(200);
    expect((await login(server.url, 'lab2admin', 'Hand@2026')).status).toBe(200);
  });
});

describe('a password hashed with older parameters', () => {
  it('is hashed anew at the next right sign-in (not at a wrong one), and still signs in', async () => {
    const lims = await startInProcess();
    try {
      // The library's defaults (64 MiB, 3 passes, 4 lanes), which accounts made before today's parameters carry.
      const old = await argon2.hash(DEMO_PASSWORD, { type: argon2.argon2id });
      await lims.db.query(`update app_user set password_hash = $1 where user_account = 'editor'`, [old]);
      const stored = async () =>
        (
          await lims.db.query<{ hash: string; version: number }>(
            `select password_hash as hash, version from app_user where user_account = 'editor'`,
          )
        )[0]!;
      const before = await stored();
      const wrong = await lims.app.inject({
        method: 'POST',
        url: '/oauth/token?client_id=laboratory',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ grant_type: 'password', username: 'editor', password: 'not-it' }).toString(),
      });
      expect(wrong.statusCode).toBe(400);
      expect((await stored()).hash).toBe(old);

      expect((await lims.signIn('editor')).token).toBeTruthy();
      const after = await stored();
      expect(after.hash).not.toBe(old);
      expect(after.hash).toMatch(/^\$argon2id\$v=19\$(?=.*m=19456)(?=.*t=2)(?=.*p=1)/);
      expect(after.version).toBe(before.version);
      expect((await lims.signIn('editor')).token).toBeTruthy();
      expect((await stored()).hash).toBe(after.hash);
    } finally {
      await lims.close();
    }
  }, 120_000);
});

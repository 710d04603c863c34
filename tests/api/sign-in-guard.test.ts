import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, login, tokenFor } from '../support/client';

/**
 * Issue 20, sign-in under attack: every failed sign-in answers alike whether or not the account
 * exists; five wrong passwords lock a name for a while, longer each time, logged and unlockable; and
 * sign-in and password change are throttled per client address and per account.
 */
let guarded: TestServer;
let throttled: TestServer;
beforeAll(async () => {
  [guarded, throttled] = await Promise.all([
    // A two-second first lock, so that a test can see it end and the next one double.
    startServer({ LIMS_LOCKOUT_SECONDS: '2', LIMS_LOCKOUT_MAX_SECONDS: '30' }),
    startServer({
      LIMS_AUTH_RATE_PER_ACCOUNT: '3',
      LIMS_AUTH_RATE_PER_ADDRESS: '8',
      LIMS_AUTH_RATE_WINDOW_SECONDS: '60',
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([guarded?.dispose(), throttled?.dispose()]);
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('failed sign-ins tell nothing about the account', () => {
  it('answers a real account and an invented one alike, wrong password after wrong password, lock included', async () => {
    // Five wrong passwords, then the real account's right one: refused alike while the name is locked.
    const answers = async (name: string) => {
      const out: { status: number; body: unknown }[] = [];
      for (let i = 0; i < 5; i++) out.push(await login(guarded.url, name, 'Wrong@pass1'));
      out.push(await login(guarded.url, name, DEMO_PASSWORD));
      return out;
    };
    const real = await answers('lab2admin');
    const invented = await answers('no-such-person');
    expect(invented).toEqual(real);
    expect(real.slice(0, 4).every((a) => a.status === 400 && JSON.stringify(a.body).includes('用户名或密码错误'))).toBe(
      true,
    );
    expect(JSON.stringify(real)).not.toContain('再错');
    expect(real[4]!.body).toMatchObject({ error: 'account_locked' });
    expect(real[5]!.body).toMatchObject({ error: 'account_locked' });
  });
});

describe('temporary lock', () => {
  it('ends by itself, doubles the next time, is logged, and an administrator may lift it', async () => {
    const fiveWrong = async () => {
      for (let i = 0; i < 5; i++) await login(guarded.url, 'editor', 'Wrong@pass1');
    };
    await fiveWrong();
    expect((await login(guarded.url, 'editor', DEMO_PASSWORD)).body.error).toBe('account_locked');
    await sleep(2200);
    // The lock ended without an administrator; a failure after it counts afresh.
    expect((await login(guarded.url, 'editor', 'Wrong@pass1')).body.error).toBe('invalid_grant');
    for (let i = 0; i < 4; i++) await login(guarded.url, 'editor', 'Wrong@pass1');
    await sleep(2200);
    // The second lock lasts twice as long as the first: 4 s.
    expect((await login(guarded.url, 'editor', DEMO_PASSWORD)).body.error).toBe('account_locked');

    const admin = api(guarded.url, await tokenFor(guarded.url, 'admin', DEMO_PASSWORD));
    const log = await admin.get<{ records: { action: string; userAccount: string; after: { seconds: number } }[] }>(
      '/api/log/getLogList?resource=user&userAccount=editor&size=50',
    );
    const locks = log.body.resultObject.records.filter((r) => r.action === 'lock').map((r) => r.after.seconds);
    expect(locks.reverse()).toEqual([2, 4]);

    const users = await admin.get<{ records: { id: number; userAccount: string; locked: boolean }[] }>(
      '/api/user/getUser?userAccount=editor',
    );
    const row = users.body.resultObject.records.find((u) => u.userAccount === 'editor')!;
    expect(row.locked).toBe(true);
    expect((await admin.get(`/api/user/unlockUser?id=${row.id}`)).status).toBe(200);
    expect((await login(guarded.url, 'editor', DEMO_PASSWORD)).status).toBe(200);
  });
});

describe('throttling', () => {
  const expectThrottled = (res: { status: number; body: Record<string, unknown> }, message: RegExp) => {
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ resultCode: 429, resultObject: null });
    expect(String(res.body.resultMessage)).toMatch(message);
  };

  it('limits sign-ins per account, then per client address, whatever X-Forwarded-For says', async () => {
    for (let i = 0; i < 3; i++) expect((await login(throttled.url, 'lab3admin', 'Wrong@pass1')).status).toBe(400);
    // The fourth try for the same account, even with the right password, waits.
    expectThrottled(await login(throttled.url, 'lab3admin', DEMO_PASSWORD), /^尝试过于频繁，请\d+秒后再试$/);
    const english = await login(throttled.url, 'lab3admin', DEMO_PASSWORD, { 'accept-language': 'en-US' });
    expectThrottled(english, /^Too many attempts; try again in \d+ seconds$/);

    const raw = await fetch(`${throttled.url}/oauth/token?client_id=laboratory`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', username: 'lab3admin', password: DEMO_PASSWORD }),
    });
    expect(Number(raw.headers.get('retry-after'))).toBeGreaterThan(0);

    // Other accounts from the same address: its own limit (8 a minute, the 6 above included) then holds,
    // and a forged X-Forwarded-For does not make the client another one (no trusted proxy is configured).
    const others = [];
    for (const name of ['a1', 'a2', 'a3', 'a4'])
      others.push((await login(throttled.url, name, 'Wrong@pass1', { 'x-forwarded-for': `10.0.0.${name[1]}` })).status);
    expect(others).toEqual([400, 400, 429, 429]);
  });

  it('limits password changes per account', async () => {
    // A server of its own: the address limit of the test above is spent on `throttled`.
    const server = await startServer({ LIMS_AUTH_RATE_PER_ACCOUNT: '3' });
    try {
      const me = api(server.url, await tokenFor(server.url, 'editor', DEMO_PASSWORD));
      const wrong = { password: 'Nope@2026x', newPassword: 'Next@2026x', confirmPassword: 'Next@2026x' };
      for (let i = 0; i < 3; i++) expect((await me.post('/api/user/changePassword', wrong)).status).toBe(400);
      const fourth = await me.post('/api/user/changePassword', wrong);
      expect(fourth.status).toBe(429);
      expect(fourth.body.resultMessage).toMatch(/^尝试过于频繁/);
      // Another account is not held up by this one.
      const admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
      expect((await admin.post('/api/user/changePassword', wrong)).status).toBe(400);
    } finally {
      await server.dispose();
    }
  }, 180_000);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcess, type InProcessApp } from '../support/in-process';
import { DEMO_PASSWORD } from '../support/server';

let lims: InProcessApp;
beforeAll(async () => {
  lims = await startInProcess({ LIMS_IDLE_TIMEOUT_SECONDS: '600', LIMS_TOKEN_TTL_SECONDS: '7200' });
});
afterAll(() => lims?.close());

const signIn = async () => (await lims.signIn()).token;

const me = (token: string) => lims.app.inject({ url: '/api/user/me', headers: { authorization: `Bearer ${token}` } });

describe('idle limit and lifetime', () => {
  it('keeps a token alive while it is used', async () => {
    const token = await signIn();
    for (let i = 0; i < 3; i++) {
      lims.clock.advance(500);
      expect((await me(token)).statusCode).toBe(200);
    }
  });

  it('answers 511 once a token has been idle past the limit, then 401', async () => {
    const token = await signIn();
    lims.clock.advance(601);
    const idle = await me(token);
    expect(idle.statusCode).toBe(511);
    expect(idle.json().resultMessage).toBe('长时间未进行操作，请重新登录。');
    expect((await me(token)).statusCode).toBe(401);
  });

  it('answers 401 after the token lifetime, however busy', async () => {
    const token = await signIn();
    for (let i = 0; i < 14; i++) {
      lims.clock.advance(500);
      expect((await me(token)).statusCode).toBe(200);
    }
    lims.clock.advance(500);
    expect((await me(token)).statusCode).toBe(401);
  });
});

describe('migrations', () => {
  it('apply once: running them again changes nothing', async () => {
    const { migrate } = await import('../../src/server/kernel/db/migrate');
    const { migrations } = await import('../../src/server/kernel/db/migrations');
    expect(await migrate(lims.db)).toEqual([]);
    const rows = await lims.db.query<{ version: number }>('select version from schema_migrations order by version');
    expect(rows.map((r) => r.version)).toEqual(migrations.map((m) => m.version));
  });
});

describe('secrets at rest', () => {
  it('keeps passwords as argon2id hashes and sign-ins only as hashes of their tokens', async () => {
    const token = await signIn();
    const [user] = await lims.db.query<{ hash: string }>(
      "select password_hash as hash from app_user where user_account = 'admin'",
    );
    expect(user!.hash).toMatch(/^\$argon2id\$/);
    expect(user!.hash).not.toContain(DEMO_PASSWORD);
    const stored = await lims.db.query<{ tokenHash: string }>('select token_hash as "tokenHash" from session_token');
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.some((s) => s.tokenHash === token || s.tokenHash.includes(token))).toBe(false);
  });
});

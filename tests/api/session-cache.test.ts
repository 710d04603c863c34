import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcess, type InProcessApp } from '../support/in-process';
import { startServer, startSecondProcess, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, tokenFor } from '../support/client';

/**
 * Issue 23: signed-in sessions are remembered between calls (no token lookup per request), yet every
 * change that ends a session or alters who it acts for applies at the next call, on every process.
 */
describe('remembered sessions (one process)', () => {
  let server: InProcessApp;
  beforeAll(async () => {
    server = await startInProcess();
  });
  afterAll(() => server?.close());

  const call = async (token: string, url = '/api/user/me') =>
    server.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  /**
   * A write the server did not make reaches it as a notice: within the statement on PGlite, a few
   * milliseconds after the commit on PostgreSQL, so the refusal is waited for, not assumed at once.
   */
  const refusedSoon = (token: string) => expect.poll(async () => (await call(token)).statusCode).toBe(401);

  it('refuses a token at the call after signing out', async () => {
    const { token } = await server.signIn('editor');
    expect((await call(token)).statusCode).toBe(200);
    expect((await call(token)).statusCode).toBe(200);
    expect((await call(token, '/api/user/logOut')).statusCode).toBe(200);
    expect((await call(token)).statusCode).toBe(401);
  });

  it('refuses a token revoked by a write it did not make (another process, an operator)', async () => {
    const { token } = await server.signIn('editor');
    expect((await call(token)).statusCode).toBe(200);
    await server.db.query(`update session_token set revoked_at = now() where revoked_at is null`);
    await refusedSoon(token);
  });

  it('ends every session of a user the administrator deletes', async () => {
    const { token, id } = await server.signIn('lab3admin');
    expect((await call(token)).statusCode).toBe(200);
    await server.db.query('delete from session_token where user_id = $1', [id]);
    await refusedSoon(token);
  });

  it("applies a change of the user's roles at the next call", async () => {
    const { token, id } = await server.signIn('editor');
    const menu = async () =>
      (JSON.parse((await call(token, '/api/ui/menu')).body) as { resultObject: { denied: string[] } }).resultObject;
    const before = await menu();
    await server.db.query('delete from user_role where user_id = $1', [id]);
    await expect.poll(async () => (await menu()).denied.length).toBeGreaterThan(before.denied.length);
  });

  it('still ends a session left idle past the limit', async () => {
    const { token } = await server.signIn('editor');
    expect((await call(token)).statusCode).toBe(200);
    server.clock.advance(31 * 60);
    expect((await call(token)).statusCode).toBe(511);
  });
});

// Two processes need a database both reach: runs where TEST_DATABASE_URL names a PostgreSQL server.
describe.runIf(process.env.TEST_DATABASE_URL)('remembered sessions on two processes (PostgreSQL)', () => {
  let first: TestServer;
  let second: TestServer;
  beforeAll(async () => {
    first = await startServer();
    second = await startSecondProcess(first);
  }, 240_000);
  afterAll(async () => {
    await second?.dispose();
    await first?.dispose();
  });

  /** The other process hears of the change by NOTIFY after the commit: a few milliseconds later. */
  async function statusSoon(client: ReturnType<typeof api>, expected: number): Promise<number> {
    const until = Date.now() + 2_000;
    let status = (await client.get('/api/user/me')).status;
    while (status !== expected && Date.now() < until) status = (await client.get('/api/user/me')).status;
    return status;
  }

  it('refuses on the other process a token signed out on one', async () => {
    const token = await tokenFor(first.url, 'editor', DEMO_PASSWORD);
    const [onFirst, onSecond] = [api(first.url, token), api(second.url, token)];
    expect((await onSecond.get('/api/user/me')).status).toBe(200);
    expect((await onFirst.get('/api/user/me')).status).toBe(200);
    expect((await onFirst.get('/api/user/logOut')).status).toBe(200);
    expect((await onFirst.get('/api/user/me')).status).toBe(401);
    expect(await statusSoon(onSecond, 401)).toBe(401);
  });
});

import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, DEMO_PASSWORD, type TestServer } from '../support/server';
import { api, login, tokenFor, type Envelope } from '../support/client';

/**
 * Issue 20, input taken as declared: path ids, no coercion of bodies, NUL and depth, the framework's
 * own refusals in the spec's envelope, authentication by route rather than URL text, and the client
 * address read from X-Forwarded-For only behind a trusted proxy.
 */
let server: TestServer;
let admin: ReturnType<typeof api>;
let token: string;
beforeAll(async () => {
  server = await startServer();
  token = await tokenFor(server.url, 'admin', DEMO_PASSWORD);
  admin = api(server.url, token);
});
afterAll(() => server?.dispose());

/**
 * A request sent as written: fetch would normalise the path (`..`, percent-encoding) before sending it.
 * Each on a connection of its own (no keep-alive pool), so a refused body never reaches the next request.
 * With `declaredLength`, only the headers go: the server must refuse a body too large from its declared
 * length, and a client still writing megabytes to a connection the server has closed gets EPIPE instead of
 * the answer, depending on who is faster.
 */
function raw(
  url: string,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string; declaredLength?: number },
): Promise<{ status: number; body: string; headers: Record<string, unknown> }> {
  const { hostname, port } = new URL(url);
  const headers = { ...options.headers };
  if (options.declaredLength !== undefined) headers['content-length'] = String(options.declaredLength);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { hostname, port, method: options.method ?? 'GET', path: options.path, headers, agent: false },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (body += chunk));
        res.on('end', () => {
          resolve({ status: res.statusCode ?? 0, body, headers: res.headers });
          req.destroy();
        });
      },
    );
    req.on('error', reject);
    if (options.declaredLength === undefined) req.end(options.body);
    else req.flushHeaders();
  });
}

function expectEnvelope(status: number, body: unknown, expected: number) {
  expect(status).toBe(expected);
  const envelope = (typeof body === 'string' ? JSON.parse(body) : body) as Envelope;
  expect(envelope.resultCode).toBe(expected);
  expect(envelope.resultMessage).toEqual(expect.any(String));
  expect(envelope.resultMessage.length).toBeGreaterThan(0);
  expect(envelope.resultObject).toBeNull();
  return envelope;
}

describe('ids in paths', () => {
  const BAD_IDS = ['1e309', '-1', '1.5', 'abc', '99999999999999999999', '0', '01', '2147483648', '0x10', '%20%31'];
  const ROUTES: [method: string, path: (id: string) => string][] = [
    ['GET', (id) => `/api/resources/specimenType/${id}`],
    ['PUT', (id) => `/api/resources/specimenType/${id}`],
    ['DELETE', (id) => `/api/resources/specimenType/${id}`],
    ['GET', (id) => `/api/user/${id}`],
    ['DELETE', (id) => `/api/user/${id}`],
    ['GET', (id) => `/api/dictionary/${id}`],
    ['DELETE', (id) => `/api/dictionary/detail/${id}`],
    ['POST', (id) => `/api/dictionary/${id}/detail/creating`],
    ['POST', (id) => `/api/qc/results/${id}/evaluate`],
    ['POST', (id) => `/api/finance/settlementAudit/${id}/approve`],
    ['POST', (id) => `/api/finance/settlementAudit/${id}/reject`],
    ['POST', (id) => `/api/microbiology/susceptibility/${id}/interpret`],
    ['POST', (id) => `/api/barcodes/rules/${id}/issue`],
    ['POST', (id) => `/api/workflow/specimen/${id}/start`],
    ['POST', (id) => `/api/form/insertFormDataList/${id}`],
  ];

  it('answers 400 in the envelope, never 500, before any handler', async () => {
    for (const [method, path] of ROUTES)
      for (const id of BAD_IDS) {
        const withBody = method === 'POST' || method === 'PUT';
        const res = await raw(server.url, {
          method,
          path: path(id),
          headers: { authorization: `Bearer ${token}`, ...(withBody && { 'content-type': 'application/json' }) },
          body: withBody ? '{}' : undefined,
        });
        const envelope = expectEnvelope(res.status, res.body, 400);
        expect(envelope.resultMessage, `${method} ${path(id)}`).toBe('路径中的id必须是1到2147483647之间的整数');
      }
  });

  it('reads a good id as before, and a text id where the route declares one', async () => {
    expect((await admin.get('/api/resources/specimenType/2147483647')).status).toBe(404);
    expect((await admin.get('/api/user/1000')).status).toBe(200);
    expect((await admin.get('/api/workflow/process/not-a-number')).status).toBe(404);
    expect((await admin.get('/api/ui/screens/specimen-type')).status).toBe(200);
  });
});

describe('bodies taken as declared', () => {
  it('refuses a boolean where a string is declared, naming the field, and changes nothing', async () => {
    const before = await admin.get<{ name: string }[]>('/api/organization/all');
    const res = await admin.put('/api/organization', { id: 1, name: true, code: true });
    expectEnvelope(res.status, res.body, 400);
    expect(res.body.resultMessage).toContain('name');
    expect((await admin.get('/api/organization/all')).body).toEqual(before.body);
  });

  it('refuses a number in text where an integer is declared', async () => {
    const res = await admin.post('/api/dictionary', { name: 'x-dict', type: 'bus', sort: '3' });
    expectEnvelope(res.status, res.body, 400);
    expect(res.body.resultMessage).toContain('sort');
  });

  it('refuses NUL characters in a body, a query and a path', async () => {
    const body = await admin.post('/api/resources/specimenType', { code: 'N1', name: 'a\u0000b' });
    expectEnvelope(body.status, body.body, 400);
    expect(body.body.resultMessage).toBe('输入不能包含空字符（body.name）');
    const query = await admin.get('/api/resources/specimenType?name=a%00b');
    expectEnvelope(query.status, query.body, 400);
    const path = await admin.get('/api/ui/screens/a%00b');
    expectEnvelope(path.status, path.body, 400);
  });

  it('refuses structures nested deeper than 32 levels', async () => {
    const deep = JSON.parse('{"a":'.repeat(40) + '1' + '}'.repeat(40)) as unknown;
    const res = await admin.post('/api/form/insertFormData', { formId: 1, data: deep });
    expectEnvelope(res.status, res.body, 400);
    expect(res.body.resultMessage).toBe('输入的嵌套层级超过32层');
    // A hostile depth is refused as calmly: no stack overflow, no 500.
    const hostile = '['.repeat(200_000) + ']'.repeat(200_000);
    const huge = await raw(server.url, {
      method: 'POST',
      path: '/api/resources/specimenType/batchDelete',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: `{"ids":${hostile}}`,
    });
    expectEnvelope(huge.status, huge.body, 400);
  });
});

describe("the framework's own refusals, in the envelope", () => {
  const headers = () => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

  it('answers bad JSON, a body too large, an unknown content type, a bad encoding and an over-long path', async () => {
    const badJson = await raw(server.url, {
      method: 'POST',
      path: '/api/resources/specimenType',
      headers: headers(),
      body: '{bad',
    });
    expect(expectEnvelope(badJson.status, badJson.body, 400).resultMessage).toBe('请求内容不是有效的JSON');

    const poisoned = await raw(server.url, {
      method: 'POST',
      path: '/api/resources/specimenType',
      headers: headers(),
      body: '{"__proto__":{"x":1}}',
    });
    expectEnvelope(poisoned.status, poisoned.body, 400);

    const large = await raw(server.url, {
      method: 'POST',
      path: '/api/resources/specimenType',
      headers: headers(),
      declaredLength: 2 * 1024 * 1024,
    });
    expect(expectEnvelope(large.status, large.body, 413).resultMessage).toBe('请求内容过大');

    const media = await raw(server.url, {
      method: 'POST',
      path: '/api/resources/specimenType',
      headers: { ...headers(), 'content-type': 'text/xml' },
      body: '<x/>',
    });
    expectEnvelope(media.status, media.body, 415);

    const encoding = await raw(server.url, { path: '/api/resources/specimenType/%E0%A4%A', headers: headers() });
    expect(expectEnvelope(encoding.status, encoding.body, 400).resultMessage).toBe('请求地址编码不正确');

    const long = await raw(server.url, { path: `/api/workflow/process/${'x'.repeat(300)}`, headers: headers() });
    expect(expectEnvelope(long.status, long.body, 414).resultMessage).toBe('请求地址过长');

    const english = await raw(server.url, {
      path: '/api/resources/specimenType/%E0%A4%A',
      headers: { ...headers(), 'accept-language': 'en-US' },
    });
    expect(JSON.parse(english.body).resultMessage).toBe('The request URL is not validly encoded');
  });
});

describe('authentication by route, never by URL text', () => {
  it('answers a percent-encoded path without a token exactly as the plain one', async () => {
    const plain = await raw(server.url, { path: '/api/user/me' });
    for (const path of ['/%61pi/user/me', '/%61%70%69/user/me', '/api/%75ser/me']) {
      const encoded = await raw(server.url, { path });
      expect(encoded.status, path).toBe(401);
      expect(encoded.body).toBe(plain.body);
    }
  });

  it('refuses before the handler: no 400 or 404 tells a stranger what a route would say', async () => {
    for (const path of ['/%61pi/user/abc', '/%61pi/resources/noSuchThing', '/%61pi/resources/specimenType/1e309']) {
      const res = await raw(server.url, { path });
      expectEnvelope(res.status, res.body, 401);
    }
  });
});

describe('client address', () => {
  const lastLoginIp = async (server: TestServer, account: string) => {
    const admin = api(server.url, await tokenFor(server.url, 'admin', DEMO_PASSWORD));
    const log = await admin.get<{ records: { action: string; ip: string }[] }>(
      `/api/log/getLogList?resource=user&userAccount=${account}&size=5`,
    );
    return log.body.resultObject.records.find((r) => r.action === 'login')?.ip;
  };

  it('ignores X-Forwarded-For when no proxy is trusted', async () => {
    expect((await login(server.url, 'editor', DEMO_PASSWORD, { 'x-forwarded-for': '203.0.113.9' })).status).toBe(200);
    expect(await lastLoginIp(server, 'editor')).toBe('127.0.0.1');
    // Workflow-model entries carry the address too.
    const created = await fetch(`${server.url}/api/workflow/model/insert`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        'x-forwarded-for': '203.0.113.9',
      },
      body: JSON.stringify({ key: 'ipProbe', name: 'ipProbe' }),
    });
    expect(created.status).toBe(200);
    const log = await admin.get<{ records: { action: string; ip: string | null }[] }>(
      '/api/log/getLogList?resource=processModel&size=5',
    );
    expect(log.body.resultObject.records.find((r) => r.action === 'create')?.ip).toBe('127.0.0.1');
  });

  it('reads it from a trusted proxy (LIMS_TRUSTED_PROXIES)', async () => {
    const behindProxy = await startServer({ LIMS_TRUSTED_PROXIES: '127.0.0.1' });
    try {
      const res = await login(behindProxy.url, 'editor', DEMO_PASSWORD, { 'x-forwarded-for': '203.0.113.9' });
      expect(res.status).toBe(200);
      expect(await lastLoginIp(behindProxy, 'editor')).toBe('203.0.113.9');
    } finally {
      await behindProxy.dispose();
    }
  }, 180_000);
});

import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcess, type InProcessApp } from '../support/in-process';

/**
 * Issue 23, the API described for integrators: /api/openapi.json is a valid OpenAPI 3.1 document
 * naming every route the server answers, each with its answer's envelope, and /api/docs browses it.
 */
let server: InProcessApp;
beforeAll(async () => {
  server = await startInProcess();
});
afterAll(() => server?.close());

type Operation = {
  security?: unknown[];
  responses: Record<string, { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> }>;
  parameters?: { name: string; in: string; schema?: { enum?: string[] } }[];
  requestBody?: { content: Record<string, { schema: { oneOf?: unknown[] } }> };
};
type Document = {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
};

async function documentOf(): Promise<Document> {
  const res = await server.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(res.statusCode).toBe(200);
  return JSON.parse(res.body) as Document;
}

/**
 * Every method and full path of the router's table, read from Fastify's own printout (a tree whose
 * indentation tells each node's parent): independent of how the document was made.
 */
function registeredRoutes(): { method: string; url: string }[] {
  const lines = server.app.printRoutes({ commonPrefix: false }).split('\n');
  const stack: string[] = [];
  const routes: { method: string; url: string }[] = [];
  for (const line of lines) {
    const match = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    const methods = match[3]?.split(', ').filter((m) => m !== 'HEAD') ?? [];
    for (const method of methods) routes.push({ method: method.toLowerCase(), url: stack.join('') });
  }
  return routes;
}

const isApi = (url: string) => /^\/(api|oauth)\//.test(url) || url === '/healthz';
const documented = (url: string) => url.replace(/:(\w+)/g, '{$1}');
/** Fastify prints two routes that differ only in a parameter's name as one node, `:name|:id`. */
const alternatives = (url: string): string[] => {
  const match = /:(\w+)\|:(\w+)/.exec(url);
  if (!match) return [documented(url)];
  return [match[1]!, match[2]!].flatMap((name) => alternatives(url.replace(match[0], `:${name}`)));
};

describe('GET /api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document, served without signing in', async () => {
    const doc = await documentOf();
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('names every API route the server answers, with its method', async () => {
    const doc = await documentOf();
    // The push socket is a WebSocket upgrade, not a call OpenAPI describes; /api/docs is the page itself.
    const routes = registeredRoutes().filter(
      (r) => isApi(r.url) && !r.url.startsWith('/api/docs') && !r.url.startsWith('/api/websocket/'),
    );
    expect(routes.length).toBeGreaterThan(100);
    const missing = routes
      .filter((r) => r.url !== '/api/openapi.json' && !alternatives(r.url).some((u) => doc.paths[u]?.[r.method]))
      .map((r) => `${r.method} ${r.url}`);
    expect(missing).toEqual([]);
    expect(doc.paths['/api/user/me']?.get).toBeDefined();
  });

  it('gives each call its envelope and its refusal, and the bearer token where one is needed', async () => {
    const doc = await documentOf();
    const envelopeLess: string[] = [];
    for (const [url, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const refusal = operation.responses.default?.content?.['application/json']?.schema?.properties ?? {};
        expect(Object.keys(refusal), `${method} ${url}`).toEqual(['resultCode', 'resultMessage', 'resultObject']);
        const answer = operation.responses['200']?.content ?? {};
        const json = answer['application/json']?.schema?.properties;
        const fileOrOwn = !json || url === '/oauth/token' || url === '/healthz' || 'code' in json;
        if (!fileOrOwn && !('resultObject' in json)) envelopeLess.push(`${method} ${url}`);
        // Sign-in, the health check and the backup call (it checks a key of its own) take no bearer token.
        if (['/oauth/token', '/healthz', '/api/system/backup'].includes(url)) expect(operation.security).toEqual([]);
        else expect(operation.security, `${method} ${url}`).toEqual([{ bearer: [] }]);
      }
    }
    expect(envelopeLess).toEqual([]);
    expect(doc.paths['/api/resources/{resource}/export.xlsx']?.get?.responses['200']?.content).toHaveProperty([
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    ]);
  });

  it("describes the generic resources with their screens' record schemas", async () => {
    const doc = await documentOf();
    const create = doc.paths['/api/resources/{resource}']?.post;
    const names = create?.parameters?.find((p) => p.name === 'resource')?.schema?.enum ?? [];
    expect(names).toContain('abnormalSampleType');
    const body = create?.requestBody?.content['application/json']?.schema.oneOf ?? [];
    expect(body).toContainEqual({ $ref: '#/components/schemas/resource.abnormalSampleType' });
    const record = doc.components.schemas['resource.abnormalSampleType'];
    expect(Object.keys(record?.properties ?? {})).toEqual(expect.arrayContaining(['code', 'name']));
  });
});

describe('GET /api/docs', () => {
  it('is a page an administrator can browse the API on', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('swagger-ui');
  });
});

import type { FastifyInstance, RouteOptions } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { recordJsonSchema } from '../../../shared/screens/fields.js';
import type { ScreenRegistry } from '../screens/registry.js';

type Schema = Record<string, unknown>;

/** The spec 7 envelope around any answer, with the answer's own schema as resultObject. */
export function envelopeOf(resultObject: Schema = {}): Schema {
  return {
    type: 'object',
    required: ['resultCode', 'resultMessage', 'resultObject'],
    properties: {
      resultCode: { type: 'integer', examples: [200] },
      resultMessage: { type: 'string' },
      resultObject,
    },
  };
}

/** The workflow sync and distribution calls answer code 20000 / message / data (spec 7.5). */
const workflowEnvelope: Schema = {
  type: 'object',
  required: ['code', 'message', 'data'],
  properties: { code: { type: 'integer', const: 20000 }, message: { type: 'string' }, data: {} },
};

const errorEnvelope = envelopeOf({ type: 'null' });

/** A file the browser saves: a workbook or a PDF, not JSON. */
const fileAnswer = (mime: string) => ({ 200: { description: 'File', content: { [mime]: { schema: {} } } } });

/**
 * The few answers that are not the usual envelope, told by their URL: the token call (OAuth's own
 * shape), the health probe, the spreadsheet and PDF downloads, and the code-20000 workflow calls.
 */
function answerOf(url: string): Schema {
  if (url === '/oauth/token')
    return {
      200: {
        type: 'object',
        properties: {
          access_token: { type: 'string' },
          token_type: { type: 'string' },
          expires_in: { type: 'integer' },
        },
      },
    };
  if (url === '/healthz') return { 200: { type: 'object', properties: { status: { type: 'string' } } } };
  if (/\.xlsx$|\/template$/.test(url))
    return fileAnswer('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  if (/\/labels$|\.pdf$|\/pdf$|\/print/.test(url)) return fileAnswer('application/pdf');
  if (/\/api\/workflow\/(syncModel|issueModel)$|\/syncWorkflow|\/issueWorkflow/.test(url))
    return { 200: workflowEnvelope };
  return { 200: envelopeOf() };
}

/** Only the API is described: the app's files and pages are not calls an integrator makes. */
const isApi = (url: string) => /^\/(api|oauth)\//.test(url) || url === '/healthz';

/** Each generic resource's record schema, read from its screen file as the server validates it. */
function resourceSchemas(screens: ScreenRegistry): Record<string, Schema> {
  const byName: Record<string, Schema> = {};
  for (const screen of screens.list()) {
    byName[`resource.${screen.resource.name}`] = {
      ...recordJsonSchema(screen.fields),
      title: screen.title['en-US'],
      description: screen.description,
    };
  }
  return byName;
}

/**
 * The generic resource routes (one route serving every screen's resource) get the screens' record
 * schemas: {resource} lists the names, a body or record is one of their schemas.
 */
function describeGenericResource(schema: Schema, url: string, names: string[]): Schema {
  if (!url.startsWith('/api/resources/{resource}')) return schema;
  const oneRecord = { oneOf: names.map((n) => ({ $ref: `#/components/schemas/resource.${n}` })) };
  const method = schema['x-method'];
  const params = { ...(schema.params as Schema | undefined) };
  const body = url === '/api/resources/{resource}' || url === '/api/resources/{resource}/{id}' ? oneRecord : undefined;
  return {
    ...schema,
    params: {
      type: 'object',
      ...params,
      properties: { ...(params.properties as Schema | undefined), resource: { type: 'string', enum: names } },
    },
    ...(body && (method === 'POST' || method === 'PUT') && !schema.body ? { body } : {}),
  };
}

/**
 * The OpenAPI 3.1 document of every HTTP route (issue 23), made by @fastify/swagger from the route
 * table: each route's declared schemas, the spec 7 envelope where a route declares no answer of its
 * own, the bearer token unless the route is public, and the generic resources' records from the
 * screen files. Served at /api/openapi.json, with a browsable page at /api/docs.
 * Registered before any route, since @fastify/swagger learns routes as they are added.
 */
export async function installOpenApi(app: FastifyInstance, screens: ScreenRegistry): Promise<void> {
  const publicUrls = new Set<string>();
  app.addHook('onRoute', (route: RouteOptions) => {
    if ((route.config as { public?: boolean } | undefined)?.public) publicUrls.add(route.url);
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'LIMS API',
        version: '1',
        description:
          'Every call but the token call and the health probe needs `Authorization: Bearer <access_token>` from POST /oauth/token. Answers are the envelope resultCode / resultMessage / resultObject (spec 7).',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
        schemas: { Envelope: envelopeOf(), Error: errorEnvelope },
      },
    },
    transform: ({ schema, url, route }) => {
      const own = (schema ?? {}) as Schema;
      if (!isApi(url)) return { schema: { ...own, hide: true } as never, url };
      const methods = ([] as string[]).concat(route.method);
      const names = screens.list().map((s) => s.resource.name);
      const described = describeGenericResource(
        { ...own, 'x-method': methods[0] },
        url.replace(/:(\w+)/g, '{$1}'),
        names,
      );
      delete described['x-method'];
      const tag = url.split('/')[url.startsWith('/api/') ? 2 : 1] ?? 'api';
      return {
        schema: {
          ...described,
          tags: (own.tags as string[] | undefined) ?? [tag],
          response: (own.response as Schema | undefined) ?? {
            ...answerOf(url),
            default: { description: 'Refusal', ...errorEnvelope },
          },
          ...(publicUrls.has(url) ? { security: [] } : { security: [{ bearer: [] }] }),
        } as never,
        url,
      };
    },
    transformObject: (documents) => {
      const document = 'openapiObject' in documents ? documents.openapiObject : documents.swaggerObject;
      const components = (document as { components?: { schemas?: Schema } }).components ?? {};
      components.schemas = { ...components.schemas, ...resourceSchemas(screens) };
      return document as never;
    },
  });

  app.get('/api/openapi.json', { config: { public: true }, schema: { hide: true } }, async () => app.swagger());
  await app.register(async (scope) => {
    // The page and its script files are public like the document: it describes calls, not data.
    scope.addHook('onRoute', (route) => {
      route.config = { ...route.config, public: true };
    });
    await scope.register(swaggerUi, { routePrefix: '/api/docs' });
  });
}

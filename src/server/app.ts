import { existsSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import { pickLocale, t } from '../shared/i18n/messages.js';
import { CAPABILITIES } from './capabilities.js';
import type { Capability } from './kernel/capability.js';
import { createKernel, type KernelBase } from './kernel/context.js';
import { ApiError, InvalidRecord, sendError } from './kernel/http/envelope.js';
import { withoutSecrets } from './kernel/http/request.js';
import { installAuthHook } from './kernel/identity/hook.js';
import { installPushSockets, pushRoutes } from './kernel/push/routes.js';
import { resourceRoutes } from './kernel/resources/routes.js';
import { screenRoutes } from './kernel/screens/routes.js';
import { installUnloggedWriteWatch, watchWrites } from './kernel/audit/unloggedWrites.js';

/**
 * Builds the HTTP server: the kernel with every capability of CAPABILITIES, the auth hook, the spec's
 * error envelope, the kernel's own routes (generic resource, screens, push), each capability's routes,
 * and the browser app.
 */
export async function buildApp(
  base: KernelBase,
  capabilities: readonly Capability[] = CAPABILITIES,
): Promise<FastifyInstance> {
  const kernel = createKernel({ ...base, db: watchWrites(base.db) }, capabilities);
  const app = Fastify({
    logger: {
      level: kernel.config.logLevel,
      // Some spec calls carry a password in the query (spec 7.2 confirmReceive): never into the log.
      serializers: {
        req: (req: FastifyRequest) => ({
          method: req.method,
          url: withoutSecrets(req.url),
          host: req.host,
          remoteAddress: req.ip,
        }),
      },
    },
    trustProxy: true,
    ajv: { customOptions: { allErrors: false, removeAdditional: true, coerceTypes: 'array' } },
  });
  await app.register(formbody);
  installUnloggedWriteWatch(app);

  app.decorateRequest('locale', 'zh-CN');
  app.addHook('onRequest', async (request) => {
    request.locale = pickLocale(request.headers['accept-language']);
  });
  await installPushSockets(app, kernel);
  installAuthHook(app, kernel);

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof ApiError) return sendError(reply, error.status, t(error.key, request.locale, error.vars));
    if (error instanceof InvalidRecord)
      return sendError(reply, 400, error.message, { resultObject: { errors: error.errors } });
    const {
      statusCode: status,
      validation,
      message,
    } = error as { statusCode?: number; validation?: unknown; message?: string };
    if (validation) return sendError(reply, 400, `${t('common.invalid', request.locale)}: ${message}`);
    if (status && status >= 400 && status < 500) return sendError(reply, status, message ?? '');
    request.log.error(error);
    // Never the stack or the driver's text: those help an attacker more than a user.
    return sendError(reply, 500, t('common.serverError', request.locale));
  });

  // A route that does nothing, so benchmarks can tell the framework's cost from ours.
  app.get('/healthz', { config: { public: true } }, async () => ({ status: 'ok' }));

  await app.register(async (scope) => resourceRoutes(scope, kernel));
  await app.register(async (scope) => screenRoutes(scope, kernel));
  await app.register(async (scope) => pushRoutes(scope, kernel));
  for (const capability of capabilities) {
    const routes = capability.routes;
    if (routes) await app.register(async (scope) => routes(scope, kernel));
  }
  await serveWebApp(app, kernel.config.webRoot);
  return app;
}

/** The built browser app, with index.html for every client route (/login, /dashboard, …). */
async function serveWebApp(app: FastifyInstance, webRoot: string) {
  const hasApp = existsSync(path.join(webRoot, 'index.html'));
  if (hasApp) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      setHeaders(res, file: string) {
        const hashed = file.includes(`${path.sep}assets${path.sep}`);
        res.header('Cache-Control', hashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isPage = request.method === 'GET' && !/^\/(api|oauth)\//.test(request.url);
    if (hasApp && isPage && !path.extname(request.url.split('?')[0] ?? '')) {
      return reply.header('Cache-Control', 'no-cache').sendFile('index.html');
    }
    if (hasApp && isPage) {
      const file = decodeURIComponent(request.url.split('?')[0] ?? '').replace(/^\/+/, '');
      if (existsSync(path.join(webRoot, file)) && !file.includes('..')) return reply.sendFile(file);
    }
    return sendError(reply, 404, t('common.notFound', request.locale));
  });
}

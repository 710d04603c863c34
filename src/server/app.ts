import { existsSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import fastifyStatic from '@fastify/static';
import { pickLocale, t } from '../shared/i18n/messages.js';
import { CAPABILITIES } from './capabilities.js';
import type { Capability } from './kernel/capability.js';
import { createKernel, type KernelBase } from './kernel/context.js';
import { sendError } from './kernel/http/envelope.js';
import { clientErrorHandler, errorHandler, frameworkErrors } from './kernel/http/errors.js';
import { installSecurityHeaders } from './kernel/http/headers.js';
import { installInputRules } from './kernel/http/input.js';
import { withoutSecrets } from './kernel/http/request.js';
import { installThrottles } from './kernel/http/throttle.js';
import { installAuthHook } from './kernel/identity/hook.js';
import { installPushSockets, pushRoutes } from './kernel/push/routes.js';
import { resourceRoutes } from './kernel/resources/routes.js';
import { screenRoutes } from './kernel/screens/routes.js';
import { dashboardRoutes } from './kernel/dashboard/routes.js';
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
    // X-Forwarded-For / -Proto are believed only from the proxies the operator names (LIMS_TRUSTED_PROXIES):
    // from anyone else they would let a client write any address into the operation log.
    trustProxy: kernel.config.trustedProxies.length > 0 ? kernel.config.trustedProxies : false,
    frameworkErrors,
    clientErrorHandler,
  });
  await installSecurityHeaders(app);
  await installThrottles(app);
  installInputRules(app);
  await app.register(formbody);
  installUnloggedWriteWatch(app);

  app.decorateRequest('locale', 'zh-CN');
  app.addHook('onRequest', async (request) => {
    request.locale = pickLocale(request.headers['accept-language']);
  });
  await installPushSockets(app, kernel);
  installAuthHook(app, kernel);

  app.setErrorHandler(errorHandler);

  // A route that does nothing, so benchmarks can tell the framework's cost from ours.
  app.get('/healthz', { config: { public: true } }, async () => ({ status: 'ok' }));

  await app.register(async (scope) => resourceRoutes(scope, kernel));
  await app.register(async (scope) => screenRoutes(scope, kernel));
  await app.register(async (scope) => pushRoutes(scope, kernel));
  await app.register(async (scope) => dashboardRoutes(scope, kernel));
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
  // Every route declared from here on is a file of the built app, which anyone may load (the login
  // page is one): public. The capabilities' routes are all declared by now, so this reaches none of them.
  app.addHook('onRoute', (route) => {
    route.config = { ...route.config, public: true };
  });
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

import { existsSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance, type FastifyRequest, type RouteOptions } from 'fastify';
import compress from '@fastify/compress';
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
import { installOpenApi } from './kernel/http/openapi.js';
import { withoutSecrets } from './kernel/http/request.js';
import { installThrottles } from './kernel/http/throttle.js';
import { installAuthHook } from './kernel/identity/hook.js';
import { installPushSockets, pushRoutes } from './kernel/push/routes.js';
import { backupRoutes } from './kernel/backup/routes.js';
import { resourceRoutes } from './kernel/resources/routes.js';
import { screenRoutes } from './kernel/screens/routes.js';
import { dashboardRoutes } from './kernel/dashboard/routes.js';
import { drawLeftFilesWhenListening } from './kernel/files/recordFiles.js';
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
  await kernel.sessions.start();
  await kernel.reads.start();
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
  collectRouteTable(app);
  app.addHook('onClose', async () => {
    await Promise.all([kernel.sessions.close(), kernel.reads.close()]);
  });
  await installSecurityHeaders(app);
  await installThrottles(app);
  installInputRules(app);
  await app.register(formbody);
  // JSON answers (and any asset without a ready-made .br/.gz) compressed on the fly above 1 KB: a
  // branch site's slow link carries a list page in a fifth of the bytes. Brotli at a low quality, since
  // the answer is made per request and quality 11 would cost more CPU than the link saves.
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
  installUnloggedWriteWatch(app);

  app.decorateRequest('locale', 'zh-CN');
  app.addHook('onRequest', async (request) => {
    request.locale = pickLocale(request.headers['accept-language']);
  });
  await installPushSockets(app, kernel);
  installAuthHook(app, kernel);

  app.setErrorHandler(errorHandler);
  await installOpenApi(app, kernel.screens);

  // A route that does nothing, so benchmarks can tell the framework's cost from ours.
  app.get('/healthz', { config: { public: true } }, async () => ({ status: 'ok' }));

  drawLeftFilesWhenListening(app, kernel.files);
  await app.register(async (scope) => resourceRoutes(scope, kernel));
  await app.register(async (scope) => screenRoutes(scope, kernel));
  await app.register(async (scope) => pushRoutes(scope, kernel));
  await app.register(async (scope) => backupRoutes(scope, kernel));
  await app.register(async (scope) => dashboardRoutes(scope, kernel));
  for (const capability of capabilities) {
    const routes = capability.routes;
    if (routes) await app.register(async (scope) => routes(scope, kernel));
  }
  await serveWebApp(app, kernel.config.webRoot);
  return app;
}

export interface RouteEntry {
  method: string;
  url: string;
  /** Declared open to strangers (config.public): the sign-in call, the app's files, health. */
  public: boolean;
  /** The JSON Schema its body is checked against, when it declares one. */
  body?: unknown;
}
const routeTables = new WeakMap<FastifyInstance, RouteOptions[]>();

/** Remembers every route as declared, so a test can call each one (issue 20: a new route is covered by itself). */
function collectRouteTable(app: FastifyInstance) {
  const routes: RouteOptions[] = [];
  routeTables.set(app, routes);
  app.addHook('onRoute', (route) => {
    routes.push(route);
  });
}

/** The app's routes, one per method (HEAD routes Fastify adds to each GET left out). */
export function routeTable(app: FastifyInstance): RouteEntry[] {
  return (routeTables.get(app) ?? []).flatMap((route) =>
    [route.method]
      .flat()
      .filter((method) => method !== 'HEAD')
      .map((method) => ({ method, url: route.url, public: !!route.config?.public, body: route.schema?.body })),
  );
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
      // The build writes .br and .gz beside every asset (vite.config.ts): sent as the browser accepts.
      preCompressed: true,
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

import type { FastifyInstance, FastifyReply, HTTPMethods } from 'fastify';
import type { RecordValues } from '../../../shared/screens/predicate.js';
import type { Kernel } from '../context.js';
import { ok } from '../http/envelope.js';
import { callerOf } from '../http/request.js';
import { idList } from '../publicData/ids.js';
import { publicDataRoutes } from '../publicData/routes.js';
import { printLabels } from './labels.js';
import { labToday } from '../labConfig/timeZone.js';

type Params = { resource: string; id: string };
type Query = Record<string, string | undefined>;

/**
 * Once every route exists, screens may only name command endpoints the server has; and while the
 * server runs, open pages hear at once that their screen file changed (push topic "screens").
 */
function followScreens(app: FastifyInstance, kernel: Kernel) {
  // A kept list page was shaped by the screen as it was (its columns, labels and rules).
  const tell = (ids: string[]) => {
    kernel.reads.forget();
    kernel.push.broadcast({ topic: 'screens', ids });
  };
  app.addHook('onReady', async () => {
    kernel.screens.useRouteCheck((method, url) => app.hasRoute({ method: method as HTTPMethods, url }));
    kernel.screens.on('screens', tell);
  });
  app.addHook('onClose', async () => {
    kernel.screens.off('screens', tell);
  });
  // A screen that just appeared is served at once; its records, once its storage is made.
  app.addHook('preHandler', async (request) => {
    if ((request.params as Partial<Params> | undefined)?.resource) await kernel.screens.recordsReady();
  });
}

/** An .xlsx answer the browser saves under its name. */
export function sendWorkbook(reply: FastifyReply, buffer: Buffer, fileName: string) {
  return reply
    .header('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`)
    .send(buffer);
}

/** A PDF answer the browser saves (or its viewer opens) under its name. */
export function sendPdf(reply: FastifyReply, pdf: Buffer, fileName: string) {
  return reply
    .header('Content-Type', 'application/pdf')
    .header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`)
    .send(pdf);
}

const basicOf = (query: unknown) => (query as { basic?: string } | undefined)?.basic === '1';

/**
 * The generic resource over HTTP: /api/resources/{resource} (list with page, size, sort=field,asc|desc
 * and field filters; /{id} to read, update with version, delete; batchDelete; export.xlsx; import),
 * each call answered by the kernel's resource service for the signed-in caller.
 */
export async function resourceRoutes(app: FastifyInstance, kernel: Kernel) {
  const { resources } = kernel;
  await publicDataRoutes(app, kernel);
  followScreens(app, kernel);
  const idOf = (params: Params) => Number(params.id) || 0;

  // A page is the same for the same caller (who, acting as what, in which language) and query until
  // lab data is next written: kept (kernel.reads), since the same pages are asked for all day.
  // Kept as the answer's text: making it again is most of a kept page's cost.
  app.get<{ Params: Params; Querystring: Query }>('/api/resources/:resource', async (request, reply) => {
    const { resource } = request.params;
    const caller = callerOf(request);
    const reach = { basic: basicOf(request.query), countUpTo: kernel.config.listCountCap };
    const key = JSON.stringify(['list', resource, caller.actor, caller.locale, Object.entries(request.query).sort()]);
    const page = await kernel.reads.read(key, async () =>
      JSON.stringify(ok(await resources.list(caller, resource, request.query, reach))),
    );
    return reply.type('application/json; charset=utf-8').send(page);
  });

  app.get<{ Params: Params }>('/api/resources/:resource/:id', async (request) =>
    ok(
      await resources.get(callerOf(request), request.params.resource, idOf(request.params), {
        basic: basicOf(request.query),
      }),
    ),
  );

  app.post<{ Params: Params; Body: RecordValues }>('/api/resources/:resource', async (request) =>
    ok(await resources.create(callerOf(request), request.params.resource, request.body ?? {})),
  );

  app.put<{ Params: Params; Body: RecordValues & { version?: number } }>(
    '/api/resources/:resource/:id',
    async (request) =>
      ok(await resources.update(callerOf(request), request.params.resource, idOf(request.params), request.body ?? {})),
  );

  app.delete<{ Params: Params }>('/api/resources/:resource/:id', async (request) =>
    ok(await resources.remove(callerOf(request), request.params.resource, [idOf(request.params)])),
  );

  app.post<{ Params: Params; Body: { ids?: unknown } }>('/api/resources/:resource/batchDelete', async (request) =>
    ok(await resources.remove(callerOf(request), request.params.resource, idList(request.body?.ids))),
  );

  app.get<{ Params: Params; Querystring: Query }>('/api/resources/:resource/export.xlsx', async (request, reply) => {
    const caller = callerOf(request);
    const reach = { basic: basicOf(request.query) };
    const { buffer, fileName } = await resources.exportWorkbook(caller, request.params.resource, request.query, reach);
    return sendWorkbook(reply, buffer, fileName);
  });

  /** Printable labels of records whose screen declares one (resource.label): a PDF for the label printer. */
  app.get<{ Params: Params; Querystring: { ids?: string } }>(
    '/api/resources/:resource/labels',
    async (request, reply) => {
      const caller = callerOf(request);
      const pdf = await printLabels(kernel, caller, request.params.resource, idList(request.query.ids));
      const title = kernel.screens.byResource(request.params.resource)?.title[caller.locale] ?? request.params.resource;
      return sendPdf(reply, pdf, `${title}_${labToday(kernel, caller.actor)}.pdf`);
    },
  );

  app.addContentTypeParser(
    ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/octet-stream'],
    { parseAs: 'buffer', bodyLimit: 20 * 1024 * 1024 },
    (_request, body, done) => done(null, body),
  );

  /** A transition of the record's lifecycle, run by hand: the body gives its required fields and the version seen. */
  app.post<{ Params: Params & { name: string }; Body: RecordValues & { version?: unknown } }>(
    '/api/resources/:resource/:id/transitions/:name',
    async (request) => {
      const { version, ...input } = request.body ?? {};
      const run = { input, version: typeof version === 'number' ? version : undefined };
      const { resource, name } = request.params;
      const row = await resources.transition(callerOf(request), resource, idOf(request.params), name, run);
      return ok({ id: row.id, version: row.version, ...row.data });
    },
  );

  /**
   * The same transition for several records (a batch action: the selected rows), all or none: the body
   * gives the ids and the transition's required fields, once for all of them.
   */
  app.post<{ Params: Params & { name: string }; Body: RecordValues & { ids?: unknown } }>(
    '/api/resources/:resource/transitions/:name',
    async (request) => {
      const { ids, ...input } = request.body ?? {};
      const { resource, name } = request.params;
      const rows = await resources.transitionMany(callerOf(request), resource, idList(ids), name, { input });
      return ok(rows.map((row) => ({ id: row.id, version: row.version, ...row.data })));
    },
  );

  /** A record's history, oldest first: its transitions and the steps of capabilities on it. */
  app.get<{ Params: Params }>('/api/resources/:resource/:id/events', async (request) =>
    ok(await resources.history(callerOf(request), request.params.resource, idOf(request.params))),
  );

  app.post<{ Params: Params; Body: Buffer }>('/api/resources/:resource/import', async (request) =>
    ok({ imported: await resources.importWorkbook(callerOf(request), request.params.resource, request.body) }),
  );
}

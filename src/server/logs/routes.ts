import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasRole } from '../../shared/access/can.js';
import type { Kernel } from '../kernel/context.js';
import { forbidden, notFound, ok, okMessage } from '../kernel/http/envelope.js';
import { actorOf, intParam } from '../kernel/http/request.js';
import { listLog } from '../kernel/audit/log.js';
import { exportWorkbook } from '../kernel/resources/excel.js';
import { sendWorkbook } from '../kernel/resources/routes.js';
import type { ApiRecord } from '../kernel/resources/records.js';
import { emptyLog, findLog, type LogFilter } from '../kernel/audit/entries.js';
import { verifyChain } from '../kernel/audit/chain.js';

/**
 * The operation log (spec 7.7, domain notes "Audit and records"): administrators read it, export it
 * to Excel and may empty it; emptying it is itself the first entry of the new log, a checkpoint that
 * seals the chain of what it removed, so nobody clears their tracks unseen. The operationLog screen lists it through /api/resources/operationLog.
 */
const EXPORT_LIMIT = 100_000;

function filterOf(source: Record<string, unknown>): LogFilter {
  const text = (key: string) =>
    typeof source[key] === 'string' && source[key] !== '' ? String(source[key]) : undefined;
  return {
    userAccount: text('userAccount'),
    resource: text('resource'),
    action: text('action'),
    from: text('atFrom'),
    to: text('atTo'),
  };
}

export async function logRoutes(app: FastifyInstance, ctx: Kernel) {
  const { db } = ctx;

  function admin(request: FastifyRequest) {
    const actor = actorOf(request);
    if (!hasRole(actor, ['admin'])) throw forbidden();
    return actor;
  }

  async function sendLogWorkbook(request: FastifyRequest, reply: FastifyReply, filter: LogFilter) {
    const actor = admin(request);
    const screen = ctx.screens.byResource('operationLog');
    if (!screen) throw notFound();
    const zone = actor.timeZone ?? ctx.config.timeZone;
    const { records } = await findLog(db, actor.orgId, filter, { page: 1, size: EXPORT_LIMIT }, zone);
    const buffer = await exportWorkbook(screen, records as unknown as ApiRecord[], request.locale);
    return sendWorkbook(reply, buffer, `${screen.title[request.locale]}.xlsx`);
  }

  /** Spec 7.7 getLogList: who did what, when, from where, before and after, narrowed to a resource or an account. */
  app.get<{ Querystring: Record<string, string | undefined> }>('/api/log/getLogList', async (request) => {
    const actor = admin(request);
    const q = request.query;
    const page = { page: intParam(q.page, 1), size: intParam(q.size, 50, 500) };
    return ok(await listLog(db, actor.orgId, { resource: q.resource, userAccount: q.userAccount, ...page }));
  });

  app.get<{ Querystring: Record<string, string | undefined> }>('/api/resources/operationLog', async (request) => {
    const actor = admin(request);
    const q = request.query;
    return okMessage(
      request,
      'common.ok',
      await findLog(
        db,
        actor.orgId,
        filterOf(q),
        { page: intParam(q.page, 1), size: intParam(q.size, 50, 1000) },
        actor.timeZone ?? ctx.config.timeZone,
      ),
    );
  });

  app.get<{ Querystring: Record<string, string | undefined> }>(
    '/api/resources/operationLog/export.xlsx',
    (request, reply) => sendLogWorkbook(request, reply, filterOf(request.query)),
  );

  app.post<{ Body: Record<string, unknown> | undefined }>('/api/log/exportExcel', (request, reply) =>
    sendLogWorkbook(request, reply, filterOf({ ...(request.query as object), ...(request.body ?? {}) })),
  );

  app.delete('/api/log/deleteAll', async (request) => {
    const actor = admin(request);
    const deleted = await db.transaction((tx) => emptyLog(tx, actor, request.ip));
    return okMessage(request, 'common.ok', { deleted });
  });

  /** The administrator's check of the organisation's log chain (issue 20): the first broken link, if any. */
  app.get('/api/log/verifyChain', async (request) => {
    const actor = admin(request);
    return ok(await verifyChain(db, actor.orgId));
  });
}

import type { FastifyInstance, FastifyRequest, HTTPMethods } from 'fastify';
import type { ScreenSchema } from '../../../shared/screens/fields.js';
import { sortableFields } from '../../../shared/screens/fields.js';
import { labTypeWrites, screenAllows, type ScreenAction } from '../../../shared/screens/access.js';
import type { RecordValues } from '../../../shared/screens/predicate.js';
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/database.js';
import type { AuthUser } from '../identity/actor.js';
import { conflict, forbidden, InvalidRecord, notFound, ok } from '../http/envelope.js';
import { actorOf, intParam } from '../http/request.js';
import { appendLog, listLog } from '../audit/log.js';
import { BASE_ORG_ID, hasRole } from '../../../shared/access/can.js';
import {
  deleteRecord,
  getRecord,
  insertRecord,
  listRecords,
  scopeOrg,
  updateRecord,
  type ListQuery,
} from './repository.js';
import { checkWrite, present, withLabels, writableData } from './records.js';
import { exportWorkbook, importWorkbook } from './excel.js';
import { flagCopies, publicDataRoutes } from '../publicData/publicData.js';
import { getOrganization } from '../identity/organizations.js';
import { hooksOf } from './hooks.js';

type Params = { resource: string; id?: string };

/** One write at a time per resource and organisation: unique checks cannot race each other. */
export async function lockScope(tx: Queryable, screen: ScreenSchema, orgId: number) {
  await tx.query('select pg_advisory_xact_lock(hashtext($1), $2)', [screen.resource.name, scopeOrg(screen, orgId)]);
}

export function listQuery(screen: ScreenSchema, query: Record<string, string | undefined>): ListQuery {
  const [field, order] = (query.sort ?? '').split(',');
  const sortable = sortableFields(screen);
  const sort =
    field && sortable.includes(field)
      ? { field, order: order === 'desc' ? ('desc' as const) : ('asc' as const) }
      : screen.list?.defaultSort;
  // page, size and sort are the list's own parameters, never filters: a field keyed "sort" (an order
  // number) would otherwise be compared with "sort,asc" and fail the whole list.
  const params = Object.fromEntries(Object.entries(query).filter(([key]) => !['page', 'size', 'sort'].includes(key)));
  return { page: intParam(query.page, 1), size: intParam(query.size, 50, 1000), sort, params };
}

/**
 * Once every route exists, screens may only name command endpoints the server has; and while the
 * server runs, open pages hear at once that their screen file changed (push topic "screens").
 */
function followScreens(app: FastifyInstance, ctx: AppContext) {
  const tell = (ids: string[]) => ctx.push.broadcast({ topic: 'screens', ids });
  app.addHook('onReady', async () => {
    ctx.screens.useRouteCheck((method, url) => app.hasRoute({ method: method as HTTPMethods, url }));
    ctx.screens.on('screens', tell);
  });
  app.addHook('onClose', async () => {
    ctx.screens.off('screens', tell);
  });
}

/**
 * The generic resource (issue 7): list, read, create, update, delete, batch delete, export and import
 * for every resource a screen schema names, with no code per screen. Permissions come from the schema,
 * rows from the caller's organisation; every write is logged with before and after.
 */
export async function resourceRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  await publicDataRoutes(app, ctx);
  followScreens(app, ctx);

  function screenFor(
    request: FastifyRequest<{ Params: Params }>,
    action: ScreenAction,
  ): { screen: ScreenSchema; actor: AuthUser } {
    const actor = actorOf(request);
    const screen = ctx.screens.byResource(request.params.resource);
    if (!screen) throw notFound();
    if (!screenAllows(screen, action, actor.roles)) throw forbidden();
    return { screen, actor };
  }

  const idOf = (request: FastifyRequest<{ Params: Params }>) => Number(request.params.id) || 0;

  /**
   * Whose rows a read answers (spec 6): the caller's organisation, except that the basic flag of a
   * public-platform route (query basic=1) reads the base organisation's public data.
   */
  const readOrg = (request: FastifyRequest, screen: ScreenSchema, actor: AuthUser) =>
    (request.query as { basic?: string }).basic === '1' && screen.resource.publicData ? BASE_ORG_ID : actor.orgId;

  /** Writes need the lab type the schema names too (permissions.writeLabTypes), when it names any. */
  const checkLabType = async (screen: ScreenSchema, actor: AuthUser) => {
    if (!screen.permissions?.writeLabTypes) return;
    const org = await getOrganization(db, actor.orgId);
    if (!org || !labTypeWrites(screen, org.labType)) throw forbidden();
  };

  app.get<{ Params: Params; Querystring: Record<string, string> }>('/api/resources/:resource', async (request) => {
    const { screen, actor } = screenFor(request, 'read');
    const orgId = readOrg(request, screen, actor);
    const { records, total, more } = await listRecords(db, screen, orgId, {
      ...listQuery(screen, request.query),
      countUpTo: ctx.config.listCountCap,
    });
    return ok({ records: await withLabels(db, screen, orgId, records.map(present)), total, ...(more && { more }) });
  });

  app.get<{ Params: Params }>('/api/resources/:resource/:id', async (request) => {
    const { screen, actor } = screenFor(request, 'read');
    const orgId = readOrg(request, screen, actor);
    const row = await getRecord(db, screen, orgId, idOf(request));
    if (!row) throw notFound();
    return ok((await withLabels(db, screen, orgId, [present(row)]))[0]);
  });

  app.post<{ Params: Params; Body: RecordValues }>('/api/resources/:resource', async (request) => {
    const { screen, actor } = screenFor(request, 'create');
    await checkLabType(screen, actor);
    const data = writableData(screen, request.body ?? {});
    const created = await db.transaction(async (tx) => {
      await lockScope(tx, screen, actor.orgId);
      const errors = await checkWrite(tx, screen, actor.orgId, data, 0, request.locale);
      if (errors.length > 0) throw new InvalidRecord(errors);
      const hooks = hooksOf(screen.resource.name);
      const write = { tx, screen, actor, locale: request.locale, ip: request.ip };
      const stored = hooks?.beforeWrite ? await hooks.beforeWrite(write, data) : data;
      const row = await insertRecord(tx, screen, actor.orgId, stored, actor.id);
      await hooks?.afterWrite?.(write, row);
      await appendLog(tx, actor, {
        resource: screen.resource.name,
        recordId: row.id,
        action: 'create',
        after: row.data,
        ip: request.ip,
      });
      return row;
    });
    return ok(present(created));
  });

  app.put<{ Params: Params; Body: RecordValues & { version?: number } }>(
    '/api/resources/:resource/:id',
    async (request) => {
      const { screen, actor } = screenFor(request, 'update');
      await checkLabType(screen, actor);
      const body = request.body ?? {};
      const updated = await db.transaction(async (tx) => {
        await lockScope(tx, screen, actor.orgId);
        const current = await getRecord(tx, screen, actor.orgId, idOf(request));
        if (!current) throw notFound();
        // The version the user edited must still be the stored one: nobody's change is overwritten.
        if (typeof body.version !== 'number' || body.version !== current.version) throw conflict();
        const data = writableData(screen, body, current.data);
        const errors = await checkWrite(tx, screen, actor.orgId, data, current.id, request.locale);
        if (errors.length > 0) throw new InvalidRecord(errors);
        const hooks = hooksOf(screen.resource.name);
        const write = { tx, screen, actor, locale: request.locale, ip: request.ip, current };
        const stored = hooks?.beforeWrite ? await hooks.beforeWrite(write, data) : data;
        const row = await updateRecord(tx, screen, actor.orgId, current.id, current.version, stored, actor.id);
        if (!row) throw conflict();
        await hooks?.afterWrite?.(write, row);
        await appendLog(tx, actor, {
          resource: screen.resource.name,
          recordId: row.id,
          action: 'update',
          before: current.data,
          after: row.data,
          ip: request.ip,
        });
        if (row.orgId === BASE_ORG_ID) await flagCopies(tx, screen, row.id);
        return row;
      });
      return ok(present(updated));
    },
  );

  const remove = async (request: FastifyRequest<{ Params: Params }>, ids: number[]) => {
    const { screen, actor } = screenFor(request, 'delete');
    await checkLabType(screen, actor);
    const hooks = hooksOf(screen.resource.name);
    return db.transaction(async (tx) => {
      const removed: number[] = [];
      for (const id of ids) {
        if (hooks?.beforeDelete) {
          await lockScope(tx, screen, actor.orgId);
          const current = await getRecord(tx, screen, actor.orgId, id);
          if (!current) throw notFound();
          await hooks.beforeDelete({ tx, screen, actor, locale: request.locale, ip: request.ip, current });
        }
        const row = await deleteRecord(tx, screen, actor.orgId, id);
        if (!row) throw notFound();
        await appendLog(tx, actor, {
          resource: screen.resource.name,
          recordId: id,
          action: 'delete',
          before: row.data,
          ip: request.ip,
        });
        removed.push(id);
      }
      return removed;
    });
  };

  app.delete<{ Params: Params }>('/api/resources/:resource/:id', async (request) =>
    ok(await remove(request, [idOf(request)])),
  );

  app.post<{ Params: Params; Body: { ids?: unknown } }>('/api/resources/:resource/batchDelete', async (request) => {
    const ids = Array.isArray(request.body?.ids)
      ? request.body.ids.map(Number).filter((n) => Number.isInteger(n) && n > 0)
      : [];
    return ok(await remove(request, ids));
  });

  app.get<{ Params: Params; Querystring: Record<string, string> }>(
    '/api/resources/:resource/export.xlsx',
    async (request, reply) => {
      const { screen, actor } = screenFor(request, 'export');
      const orgId = readOrg(request, screen, actor);
      const query = { ...listQuery(screen, request.query), page: 1, size: 100_000 };
      const { records } = await listRecords(db, screen, orgId, query);
      const rows = await withLabels(db, screen, orgId, records.map(present));
      const buffer = await exportWorkbook(screen, rows, request.locale);
      const name = encodeURIComponent(`${screen.title[request.locale]}.xlsx`);
      return reply
        .header('Content-Type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
        .header('Content-Disposition', `attachment; filename*=UTF-8''${name}`)
        .send(buffer);
    },
  );

  /** Spec 7.7 operation log: who did what, when, from where, before and after (administrators). */
  app.get<{ Querystring: Record<string, string | undefined> }>('/api/log/getLogList', async (request) => {
    const actor = actorOf(request);
    if (!hasRole(actor, ['admin'])) throw forbidden();
    const q = request.query;
    return ok(
      await listLog(db, actor.orgId, {
        resource: q.resource,
        userAccount: q.userAccount,
        page: intParam(q.page, 1),
        size: intParam(q.size, 50, 500),
      }),
    );
  });

  app.addContentTypeParser(
    ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'application/octet-stream'],
    { parseAs: 'buffer', bodyLimit: 20 * 1024 * 1024 },
    (_request, body, done) => done(null, body),
  );

  app.post<{ Params: Params; Body: Buffer }>('/api/resources/:resource/import', async (request) => {
    const { screen, actor } = screenFor(request, 'import');
    await checkLabType(screen, actor);
    const imported = await db.transaction(async (tx) => {
      await lockScope(tx, screen, actor.orgId);
      return importWorkbook(tx, screen, actor, request.body, request.locale, request.ip);
    });
    return ok({ imported });
  });
}

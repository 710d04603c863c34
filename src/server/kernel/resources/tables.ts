import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ScreenSchema } from '../../../shared/screens/fields.js';
import { labTypeWrites, screenAllows, type ScreenAction } from '../../../shared/screens/access.js';
import { getOrganization } from '../identity/organizations.js';
import type { RecordValues } from '../../../shared/screens/predicate.js';
import { validateRecord } from '../../../shared/screens/validate.js';
import type { AuthUser } from '../identity/actor.js';
import type { AppContext } from '../context.js';
import { forbidden, InvalidRecord, notFound, ok } from '../http/envelope.js';
import { actorOf, intParam } from '../http/request.js';

/**
 * A screen whose records live in their own table (users, roles, …) rather than in the generic resource:
 * the same /api/resources/{name} calls the generic renderer makes, answered by an adapter. Fastify
 * prefers these fixed paths to the generic /api/resources/:resource ones. Permissions still come from
 * the screen schema, and each write is checked with the schema's own validation first.
 */
export type TableRecord = RecordValues & { id: number; version: number; labels?: Record<string, string | string[]> };

export interface Call {
  actor: AuthUser;
  request: FastifyRequest;
  screen: ScreenSchema;
}

export interface TableAdapter {
  list(
    call: Call,
    query: Record<string, string | undefined>,
    page: { page: number; size: number },
  ): Promise<{ records: TableRecord[]; total: number }>;
  get(call: Call, id: number): Promise<TableRecord | undefined>;
  create?(call: Call, data: RecordValues): Promise<TableRecord>;
  update?(call: Call, current: TableRecord, data: RecordValues): Promise<TableRecord>;
  remove?(call: Call, current: TableRecord): Promise<void>;
}

export function registerTableResource(app: FastifyInstance, ctx: AppContext, name: string, adapter: TableAdapter) {
  const base = `/api/resources/${name}`;
  const callFor = async (request: FastifyRequest, action: ScreenAction): Promise<Call> => {
    const actor = actorOf(request);
    const screen = ctx.screens.byResource(name);
    if (!screen) throw notFound();
    if (!screenAllows(screen, action, actor.roles)) throw forbidden();
    // Writes need the lab type the schema names too (permissions.writeLabTypes), when it names any.
    if (action !== 'read' && action !== 'export' && screen.permissions?.writeLabTypes) {
      const org = await getOrganization(ctx.db, actor.orgId);
      if (!org || !labTypeWrites(screen, org.labType)) throw forbidden();
    }
    return { actor, request, screen };
  };
  const idOf = (request: FastifyRequest) => Number((request.params as { id?: string }).id) || 0;
  const existing = async (call: Call, id: number) => {
    const record = await adapter.get(call, id);
    if (!record) throw notFound();
    return record;
  };
  const valid = (call: Call, data: RecordValues) => {
    const errors = validateRecord(call.screen, data, call.request.locale);
    if (errors.length > 0) throw new InvalidRecord(errors);
    return data;
  };

  app.get<{ Querystring: Record<string, string | undefined> }>(base, async (request) => {
    const q = request.query;
    return ok(
      await adapter.list(await callFor(request, 'read'), q, {
        page: intParam(q.page, 1),
        size: intParam(q.size, 50, 1000),
      }),
    );
  });
  // Ids are numbers: other paths under the resource (…/public of a public-data screen) stay the generic
  // resource's; an export would read the generic resource's table, not this one, so there is none.
  app.get(`${base}/:id(^\\d+$)`, async (request) => ok(await existing(await callFor(request, 'read'), idOf(request))));
  app.get(`${base}/export.xlsx`, async () => {
    throw notFound();
  });
  if (adapter.create) {
    const create = adapter.create;
    app.post<{ Body: RecordValues | undefined }>(base, async (request) => {
      const call = await callFor(request, 'create');
      return ok(await create(call, valid(call, request.body ?? {})));
    });
  }
  if (adapter.update) {
    const update = adapter.update;
    app.put<{ Body: RecordValues | undefined }>(`${base}/:id`, async (request) => {
      const call = await callFor(request, 'update');
      const current = await existing(call, idOf(request));
      const body = Object.fromEntries(
        Object.entries(request.body ?? {}).filter(([k]) => !['id', 'version', 'labels'].includes(k)),
      );
      const merged = {
        ...Object.fromEntries(Object.entries(current).filter(([k]) => !['id', 'version', 'labels'].includes(k))),
        ...body,
      };
      // Rules see the whole record (read-only values too); only the fields the user writes go on.
      const known = Object.fromEntries(
        Object.entries(merged).filter(([k]) => call.screen.fields.some((f) => f.key === k)),
      );
      valid(call, known);
      const data = Object.fromEntries(
        Object.entries(known).filter(([k]) => !call.screen.fields.find((f) => f.key === k)?.readOnly),
      );
      return ok(await update(call, current, { ...data, version: request.body?.version }));
    });
  }
  if (adapter.remove) {
    const remove = adapter.remove;
    const removeAll = async (request: FastifyRequest, ids: number[]) => {
      const call = await callFor(request, 'delete');
      for (const id of ids) await remove(call, await existing(call, id));
      return ok(ids);
    };
    app.delete(`${base}/:id`, (request) => removeAll(request, [idOf(request)]));
    app.post<{ Body: { ids?: unknown } | undefined }>(`${base}/batchDelete`, (request) =>
      removeAll(
        request,
        Array.isArray(request.body?.ids)
          ? request.body.ids.map(Number).filter((n) => Number.isInteger(n) && n > 0)
          : [],
      ),
    );
  }
}

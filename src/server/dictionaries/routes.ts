import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BASE_ORG_ID, hasRole } from '../../shared/access/can.js';
import type { Kernel } from '../kernel/context.js';
import type { Queryable } from '../kernel/db/database.js';
import { isUniqueViolation } from '../kernel/db/errors.js';
import { badRequest, forbidden, notFound, ok } from '../kernel/http/envelope.js';
import { actorOf, intParam } from '../kernel/http/request.js';
import {
  deleteDetail,
  deleteDictionary,
  dictionariesFor,
  dictionaryOfDetail,
  getDictionary,
  insertDetail,
  insertDictionary,
  pageDictionaries,
  updateDetail,
  updateDictionary,
  type DetailInput,
  type DictionaryInput,
} from './repository.js';
import { dictionaryByName } from '../kernel/dictionaries/lookup.js';
import { changeDictionary, writableDictionary } from './service.js';
import { publicDataCalls } from '../kernel/publicData/routes.js';

const dictionaryBody = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    name: { type: 'string', minLength: 1, maxLength: 50 },
    type: { enum: ['sys', 'bus'] },
    description: { type: ['string', 'null'], maxLength: 200 },
    sort: { type: 'integer' },
  },
} as const;
const detailBody = {
  type: 'object',
  required: ['label', 'value'],
  properties: {
    id: { type: 'integer' },
    label: { type: 'string', minLength: 1, maxLength: 100 },
    value: { type: 'string', minLength: 1, maxLength: 200 },
    sort: { type: 'integer' },
    remark: { type: ['string', 'null'], maxLength: 200 },
  },
} as const;

/**
 * Dictionary calls of spec 7.4. System dictionaries (type sys, shared by every lab) are kept by the base
 * organisation's administrators; a lab's administrators keep its business dictionaries.
 */
export async function dictionaryRoutes(app: FastifyInstance, ctx: Kernel) {
  const { db } = ctx;

  const writable = (request: FastifyRequest, id: number) => writableDictionary(db, actorOf(request), id);
  const change = <T>(
    request: FastifyRequest,
    action: string,
    write: (tx: Queryable) => Promise<{ id: number; before?: unknown; result: T }>,
  ) => changeDictionary(db, actorOf(request), request.ip, action, write);

  app.get('/api/dictionary/all', async (request) => ok(await dictionariesFor(db, actorOf(request).orgId)));

  /**
   * Dictionaries with their details (spec 7.4 getDiationary, sic): the caller's and the shared ones, by
   * exact names (names=分页,查询时间范围, as a page reads its system dictionaries), part of a name, type.
   */
  app.get<{ Querystring: Record<string, string | undefined> }>('/api/dictionary/getDiationary', async (request) => {
    const q = request.query;
    const names = (q.names ?? '')
      .split(',')
      .map((n) => n.trim())
      .filter(Boolean);
    if (names.length > 100) throw badRequest('common.invalid');
    return ok(
      await pageDictionaries(db, actorOf(request).orgId, {
        name: q.name,
        names,
        type: q.type,
        page: intParam(q.page, 1),
        size: intParam(q.size, 50, 500),
      }),
    );
  });

  // Business dictionaries are public data (spec 1, 7.4): the generic mechanism moves them, their table
  // resource's store says how they are kept; syncDictionary / issueDictionary are its calls under the spec's names.
  publicDataCalls(app, ctx, {
    resource: 'businessDictionary',
    sync: '/api/dictionary/syncDictionary',
    issue: '/api/dictionary/issueDictionary',
    workflowEnvelope: true,
  });

  app.get<{ Params: { name: string } }>('/api/dictionary/:name/name', async (request) => {
    const dictionary = await dictionaryByName(db, actorOf(request).orgId, request.params.name);
    if (!dictionary) throw notFound();
    return ok(dictionary);
  });

  app.get<{ Params: { id: string } }>('/api/dictionary/:id', async (request) => {
    const actor = actorOf(request);
    const dictionary = await getDictionary(db, Number(request.params.id) || 0);
    if (!dictionary || (dictionary.orgId !== null && dictionary.orgId !== actor.orgId)) throw notFound();
    return ok(dictionary);
  });

  app.post<{ Body: DictionaryInput }>(
    '/api/dictionary',
    { schema: { body: { ...dictionaryBody, required: ['name', 'type'] } } },
    async (request) => {
      const actor = actorOf(request);
      if (!hasRole(actor, ['admin'])) throw forbidden();
      if (request.body.type === 'sys' && actor.orgId !== BASE_ORG_ID) throw forbidden();
      try {
        const id = await change(request, 'create', async (tx) => {
          const created = await insertDictionary(tx, request.body.type === 'sys' ? null : actor.orgId, request.body);
          return { id: created, result: created };
        });
        return ok(await getDictionary(db, id));
      } catch (error) {
        if (isUniqueViolation(error)) throw badRequest('dictionary.nameTaken');
        throw error;
      }
    },
  );

  app.put<{ Body: Partial<DictionaryInput> & { id: number } }>(
    '/api/dictionary',
    { schema: { body: { ...dictionaryBody, required: ['id'] } } },
    async (request) => {
      const before = await writable(request, request.body.id);
      await change(request, 'update', async (tx) => {
        await updateDictionary(tx, before.id, request.body);
        return { id: before.id, before, result: null };
      });
      return ok(await getDictionary(db, before.id));
    },
  );

  app.delete<{ Params: { id: string } }>('/api/dictionary/:id', async (request) => {
    const before = await writable(request, Number(request.params.id) || 0);
    await change(request, 'delete', async (tx) => {
      await deleteDictionary(tx, before.id);
      return { id: before.id, before, result: null };
    });
    return ok(before.id);
  });

  app.post<{ Params: { id: string }; Body: DetailInput }>(
    '/api/dictionary/:id/detail/creating',
    { schema: { body: detailBody } },
    async (request) => {
      const dictionary = await writable(request, Number(request.params.id) || 0);
      const detailId = await change(request, 'update', async (tx) => ({
        id: dictionary.id,
        before: dictionary,
        result: await insertDetail(tx, dictionary.id, request.body),
      }));
      return ok({ ...(await getDictionary(db, dictionary.id)), detailId });
    },
  );

  app.post<{ Params: { id: string }; Body: DetailInput & { id?: number } }>(
    '/api/dictionary/:id/detail/updating',
    { schema: { body: { ...detailBody, required: ['id', 'label', 'value'] } } },
    async (request) => {
      const dictionary = await writable(request, Number(request.params.id) || 0);
      await change(request, 'update', async (tx) => {
        if (!(await updateDetail(tx, dictionary.id, request.body.id!, request.body))) throw notFound();
        return { id: dictionary.id, before: dictionary, result: null };
      });
      return ok(await getDictionary(db, dictionary.id));
    },
  );

  app.delete<{ Params: { id: string } }>('/api/dictionary/detail/:id', async (request) => {
    const detailId = Number(request.params.id) || 0;
    const dictionaryId = await dictionaryOfDetail(db, detailId);
    if (dictionaryId === undefined) throw notFound();
    const dictionary = await writable(request, dictionaryId);
    await change(request, 'update', async (tx) => {
      await deleteDetail(tx, detailId);
      return { id: dictionary.id, before: dictionary, result: null };
    });
    return ok(detailId);
  });
}

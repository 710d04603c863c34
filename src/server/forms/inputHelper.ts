import type { FastifyInstance } from 'fastify';
import { screenAllows } from '../../shared/screens/access.js';
import type { AppContext } from '../kernel/context.js';
import { badRequest, forbidden, notFound, ok } from '../kernel/http/envelope.js';
import { actorOf } from '../kernel/http/request.js';
import { forward, queryString } from '../kernel/http/forward.js';
import { imageInput } from './images.js';

/**
 * The input helper of spec 7.6: ready-made phrases inserted into results and reports. Its list and
 * writes are the inputHelper screen's resource; the look-ups below are what result entry asks.
 */
interface Phrase {
  id: number;
  name: string;
  content: string;
  image: string | null;
  useType: string;
}

const PHRASE_COLUMNS = `id, data->>'name' as name, data->>'content' as content, data->>'image' as image, data->>'useType' as "useType"`;
const ENABLED = `coalesce((data->>'enabled')::boolean, true)`;

export async function inputHelperRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  const base = '/api/resources/inputHelper';

  function readable(roles: readonly string[]) {
    const screen = ctx.screens.byResource('inputHelper');
    if (!screen || !screenAllows(screen, 'read', roles)) throw forbidden();
  }

  /** The laboratory's phrases, paged and filtered like the screen (orgId other than the caller's is refused). */
  app.get<{ Querystring: Record<string, string | undefined> }>('/api/inputhelper/find', async (request, reply) => {
    const { orgId, ...rest } = request.query;
    if (orgId && Number(orgId) !== actorOf(request).orgId) throw forbidden();
    return forward(request, reply, 'GET', `${base}${queryString(rest)}`);
  });

  /** Creates the phrase, or updates it when an id is given. */
  app.post<{ Body: Record<string, unknown> | undefined }>('/api/inputhelper/upsert', async (request, reply) => {
    const { id, ...record } = request.body ?? {};
    if (!id) return forward(request, reply, 'POST', base, record);
    const current = (await forward(request, reply, 'GET', `${base}/${Number(id) || 0}`)) as {
      resultObject?: { version?: number };
    };
    if (reply.statusCode !== 200) return current;
    return forward(request, reply, 'PUT', `${base}/${Number(id) || 0}`, {
      version: current.resultObject?.version,
      ...record,
    });
  });

  /** The text of a phrase by its name, as result entry inserts it. */
  app.get<{ Querystring: { name?: string } }>('/api/inputhelper/getResultByName', async (request) => {
    const actor = actorOf(request);
    readable(actor.roles);
    const name = request.query.name?.trim();
    if (!name) throw badRequest('common.invalid');
    const [phrase] = await db.query<Phrase>(
      `select ${PHRASE_COLUMNS} from resource_record where resource = 'inputHelper' and org_id = $1 and data->>'name' = $2 and ${ENABLED}`,
      [actor.orgId, name],
    );
    if (!phrase) throw notFound();
    return ok(phrase);
  });

  /**
   * The pictures of input-helper nodes: one node's (id), or every node carrying one, optionally of one use
   * (useType). Values may come in the body or the query.
   */
  app.post<{ Body: { id?: unknown; useType?: string } | undefined; Querystring: { id?: string; useType?: string } }>(
    '/api/inputhelper/queryNodeImgList',
    async (request) => {
      const actor = actorOf(request);
      readable(actor.roles);
      const { id, useType } = { ...request.query, ...(request.body ?? {}) };
      const nodeId = id === undefined || id === '' ? null : Number(id);
      if (nodeId !== null && (!Number.isInteger(nodeId) || nodeId <= 0)) throw badRequest('common.invalid');
      return ok(
        await db.query<Phrase>(
          `select ${PHRASE_COLUMNS} from resource_record
          where resource = 'inputHelper' and org_id = $1 and coalesce(data->>'image', '') <> ''
            and ($2::text is null or data->>'useType' = $2) and ($3::int is null or id = $3) and ($3::int is not null or ${ENABLED})
          order by coalesce((data->>'sort')::int, 0), id`,
          [actor.orgId, useType || null, nodeId],
        ),
      );
    },
  );

  /**
   * Sets the picture of an input-helper node (multipart: id and one file; or JSON: id and an image data
   * URL), through the node's own resource: the same rights, checks, log and public-data flags as an edit.
   */
  app.post('/api/inputhelper/upsertDictImg', async (request, reply) => {
    const { image, values } = await imageInput(request);
    const id = Number(values.id);
    if (!Number.isInteger(id) || id <= 0) throw badRequest('common.invalid');
    const current = (await forward(request, reply, 'GET', `${base}/${id}`)) as { resultObject?: { version?: number } };
    if (reply.statusCode !== 200) return current;
    return forward(request, reply, 'PUT', `${base}/${id}`, { version: current.resultObject?.version, image });
  });

  /** Spec 7.6 findDictionaryMap: the phrases of one use as a name → text map, for a report's quick-insert menu. */
  app.get<{ Querystring: { useType?: string } }>('/api/form/findDictionaryMap', async (request) => {
    const actor = actorOf(request);
    readable(actor.roles);
    const rows = await db.query<Phrase>(
      `select ${PHRASE_COLUMNS} from resource_record
        where resource = 'inputHelper' and org_id = $1 and ($2::text is null or data->>'useType' = $2) and ${ENABLED}
        order by coalesce((data->>'sort')::int, 0), id`,
      [actor.orgId, request.query.useType || null],
    );
    return ok(Object.fromEntries(rows.map((r) => [r.name, r.content])));
  });
}

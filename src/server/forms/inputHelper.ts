import type { FastifyInstance, FastifyRequest } from 'fastify';
import { screenAllows } from '../../shared/screens/access.js';
import type { Kernel } from '../kernel/context.js';
import { badRequest, forbidden, notFound, ok } from '../kernel/http/envelope.js';
import { actorOf, callerOf } from '../kernel/http/request.js';
import type { Stored } from '../kernel/resources/store.js';
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

const phraseOf = (row: Stored<'inputHelper'>): Phrase => ({
  id: row.id,
  name: row.data.name ?? '',
  content: row.data.content ?? '',
  image: row.data.image ?? null,
  useType: String(row.data.useType ?? ''),
});

const enabled = (row: Stored<'inputHelper'>) => row.data.enabled !== false;

export async function inputHelperRoutes(app: FastifyInstance, ctx: Kernel) {
  const { db, resources, records } = ctx;
  const RESOURCE = 'inputHelper';
  /** The lab's phrases of one use (all uses when none), in their order (no order counts as 0). */
  const phrases = async (orgId: number, useType?: string) =>
    (await records.find(db, RESOURCE, orgId, useType ? { useType } : {})).sort(
      (a, b) => (a.data.sort ?? 0) - (b.data.sort ?? 0) || a.id - b.id,
    );
  /** Saves fields of an existing phrase as an edit of what is stored now (spec callers send no version). */
  const edit = async (request: FastifyRequest, id: number, values: Record<string, unknown>) => {
    const caller = callerOf(request);
    const current = await resources.get(caller, RESOURCE, id);
    return ok(await resources.update(caller, RESOURCE, id, { version: current.version, ...values }));
  };

  function readable(roles: readonly string[]) {
    const screen = ctx.screens.byResource('inputHelper');
    if (!screen || !screenAllows(screen, 'read', roles)) throw forbidden();
  }

  /** The laboratory's phrases, paged and filtered like the screen (orgId other than the caller's is refused). */
  app.get<{ Querystring: Record<string, string | undefined> }>('/api/inputhelper/find', async (request) => {
    const { orgId, ...rest } = request.query;
    if (orgId && Number(orgId) !== actorOf(request).orgId) throw forbidden();
    return ok(await resources.list(callerOf(request), RESOURCE, rest));
  });

  /** Creates the phrase, or updates it when an id is given. */
  app.post<{ Body: Record<string, unknown> | undefined }>('/api/inputhelper/upsert', async (request) => {
    const { id, ...record } = request.body ?? {};
    if (!id) return ok(await resources.create(callerOf(request), RESOURCE, record));
    return edit(request, Number(id) || 0, record);
  });

  /** The text of a phrase by its name, as result entry inserts it. */
  app.get<{ Querystring: { name?: string } }>('/api/inputhelper/getResultByName', async (request) => {
    const actor = actorOf(request);
    readable(actor.roles);
    const name = request.query.name?.trim();
    if (!name) throw badRequest('common.invalid');
    const phrase = (await records.find(db, RESOURCE, actor.orgId, { name })).find(enabled);
    if (!phrase) throw notFound();
    return ok(phraseOf(phrase));
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
      const withImage = (await phrases(actor.orgId, useType || undefined)).filter((r) => (r.data.image ?? '') !== '');
      // One node's picture is shown even when the node is switched off; the list shows enabled nodes only.
      const chosen = nodeId !== null ? withImage.filter((r) => r.id === nodeId) : withImage.filter(enabled);
      return ok(chosen.map(phraseOf));
    },
  );

  /**
   * Sets the picture of an input-helper node (multipart: id and one file; or JSON: id and an image data
   * URL), through the node's own resource: the same rights, checks, log and public-data flags as an edit.
   */
  app.post('/api/inputhelper/upsertDictImg', async (request) => {
    const { image, values } = await imageInput(request);
    const id = Number(values.id);
    if (!Number.isInteger(id) || id <= 0) throw badRequest('common.invalid');
    return edit(request, id, { image });
  });

  /** Spec 7.6 findDictionaryMap: the phrases of one use as a name → text map, for a report's quick-insert menu. */
  app.get<{ Querystring: { useType?: string } }>('/api/form/findDictionaryMap', async (request) => {
    const actor = actorOf(request);
    readable(actor.roles);
    const rows = (await phrases(actor.orgId, request.query.useType || undefined)).filter(enabled).map(phraseOf);
    return ok(Object.fromEntries(rows.map((r) => [r.name, r.content])));
  });
}

import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BASE_ORG_ID } from '../../shared/access/can.js';
import type { AppContext } from '../kernel/context.js';
import { forbidden } from '../kernel/http/envelope.js';
import { actorOf } from '../kernel/http/request.js';
import { forward, queryString } from '../kernel/http/forward.js';
import { idList, registerPublicDataCalls } from '../kernel/publicData/calls.js';

/**
 * The list / create / edit / delete / sync / issue calls spec 7.6 names for forms, elements and tree
 * data sources, each answered by the generic resource of the screen that shows them.
 */
export interface SpecNoun {
  /** The noun in the call names: find{noun}List, create{noun}, … */
  noun: string;
  /** Resource of the screen (schemas/screens). */
  resource: string;
  /** The spec's search parameter and the field it filters (e.g. formPageName → pageName). */
  search: { param: string; field: string };
  /** Checks a record before it is written; throws an ApiError to refuse it. */
  check?: (request: FastifyRequest, record: Record<string, unknown>) => Promise<void>;
}

type Input = Record<string, unknown>;

export function registerSpecCalls(app: FastifyInstance, ctx: AppContext, spec: SpecNoun) {
  const base = `/api/resources/${spec.resource}`;
  const input = (request: FastifyRequest): Input => ({
    ...(request.query as Input),
    ...((request.body as Input | undefined) ?? {}),
  });

  app.get<{ Querystring: Record<string, string | undefined> }>(
    `/api/form/find${spec.noun}List`,
    async (request, reply) => {
      const actor = actorOf(request);
      const { orgId, [spec.search.param]: search, ...rest } = request.query;
      const query = queryString({ ...rest, ...(search && { [spec.search.field]: search }) });
      if (orgId === undefined || orgId === '' || Number(orgId) === actor.orgId)
        return forward(request, reply, 'GET', `${base}${query}`);
      // Another organisation's list is only the base organisation's public data, offered for import.
      if (Number(orgId) === BASE_ORG_ID) return forward(request, reply, 'GET', `${base}/public${query}`);
      throw forbidden();
    },
  );

  app.post(`/api/form/create${spec.noun}`, async (request, reply) => {
    const record = input(request);
    delete record.id;
    await spec.check?.(request, record);
    return forward(request, reply, 'POST', base, record);
  });

  app.post(`/api/form/edit${spec.noun}`, async (request, reply) => {
    const record = input(request);
    const id = Number(record.id) || 0;
    if (record.version === undefined) {
      // Spec callers do not send the version: they edit what is stored now.
      const current = (await forward(request, reply, 'GET', `${base}/${id}`)) as {
        resultObject?: { version?: number };
      };
      if (reply.statusCode !== 200) return current;
      record.version = current.resultObject?.version;
    }
    await spec.check?.(request, record);
    return forward(request, reply, 'PUT', `${base}/${id}`, record);
  });

  app.post(`/api/form/del${spec.noun}`, async (request, reply) => {
    const { id, ids } = input(request);
    return forward(request, reply, 'POST', `${base}/batchDelete`, { ids: idList(ids ?? id) });
  });

  /** sync{noun}: main lab takes every public record, a sub lab the chosen ones, syncFlag 2 confirms updates; issue{noun}: the base distributes. */
  registerPublicDataCalls(app, ctx, {
    resource: spec.resource,
    sync: `/api/form/sync${spec.noun}`,
    issue: `/api/form/issue${spec.noun}`,
    workflowEnvelope: true,
  });
}

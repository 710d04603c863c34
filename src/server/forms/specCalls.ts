import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BASE_ORG_ID } from '../../shared/access/can.js';
import type { RecordValues } from '../../shared/screens/predicate.js';
import type { Kernel } from '../kernel/context.js';
import { forbidden, ok } from '../kernel/http/envelope.js';
import { callerOf, intParam } from '../kernel/http/request.js';
import { idList } from '../kernel/publicData/ids.js';
import { publicDataCalls } from '../kernel/publicData/routes.js';

/**
 * The list / create / edit / delete / sync / issue calls spec 7.6 names for forms, elements and tree
 * data sources, each answered by the generic resource of the screen that shows them: the same
 * validation, rules, organisation, locking and operation log as the screen's own calls.
 */
export interface SpecNoun {
  /** The noun in the call names: find{noun}List, create{noun}, … */
  noun: string;
  /** Resource of the screen (schemas/screens). */
  resource: string;
  /** The spec's search parameter and the field it filters (e.g. formPageName → pageName). */
  search: { param: string; field: string };
}

type Input = Record<string, unknown>;

const inputOf = (request: FastifyRequest): Input => ({
  ...(request.query as Input),
  ...((request.body as Input | undefined) ?? {}),
});

export function registerSpecCalls(app: FastifyInstance, kernel: Kernel, spec: SpecNoun) {
  const { resources, publicData } = kernel;
  const { resource } = spec;

  app.get<{ Querystring: Record<string, string | undefined> }>(`/api/form/find${spec.noun}List`, async (request) => {
    const caller = callerOf(request);
    const { orgId, [spec.search.param]: search, ...rest } = request.query;
    const query = { ...rest, ...(search && { [spec.search.field]: search }) };
    if (orgId === undefined || orgId === '' || Number(orgId) === caller.actor.orgId)
      return ok(await resources.list(caller, resource, query));
    if (Number(orgId) !== BASE_ORG_ID) throw forbidden();
    // Another organisation's list is only the base organisation's public data, offered for import.
    const { page, size, sort: _sort, ...filters } = query;
    const paging = { page: intParam(page, 1), size: intParam(size, 50, 500) };
    return ok(await publicData.offered(caller, resource, filters, paging));
  });

  app.post(`/api/form/create${spec.noun}`, async (request) => {
    const { id: _id, ...record } = inputOf(request);
    return ok(await resources.create(callerOf(request), resource, record as RecordValues));
  });

  app.post(`/api/form/edit${spec.noun}`, async (request) => {
    const caller = callerOf(request);
    const record = inputOf(request) as RecordValues & { version?: unknown };
    const id = Number(record.id) || 0;
    // Spec callers do not send the version: they edit what is stored now.
    const version = record.version ?? (await resources.get(caller, resource, id)).version;
    return ok(await resources.update(caller, resource, id, { ...record, version }));
  });

  app.post(`/api/form/del${spec.noun}`, async (request) => {
    const { id, ids } = inputOf(request);
    return ok(await resources.remove(callerOf(request), resource, idList(ids ?? id)));
  });

  /** sync{noun}: main lab takes every public record, a sub lab the chosen ones, syncFlag 2 confirms updates; issue{noun}: the base distributes. */
  publicDataCalls(app, kernel, {
    resource,
    sync: `/api/form/sync${spec.noun}`,
    issue: `/api/form/issue${spec.noun}`,
    workflowEnvelope: true,
  });
}

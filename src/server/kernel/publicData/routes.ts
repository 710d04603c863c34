import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kernel } from '../context.js';
import { ok } from '../http/envelope.js';
import { callerOf, intParam } from '../http/request.js';
import { idList } from './ids.js';

type Params = { resource: string };
type Input = Record<string, unknown>;

/** Public-data calls of every public resource, under the generic resource's path. */
export async function publicDataRoutes(app: FastifyInstance, kernel: Kernel) {
  const { publicData } = kernel;

  app.get<{ Params: Params; Querystring: Record<string, string> }>(
    '/api/resources/:resource/public',
    async (request) => {
      const q = request.query;
      // page, size and sort are the list's own parameters, never filters of a field of that name.
      const filters = Object.fromEntries(Object.entries(q).filter(([key]) => !['page', 'size', 'sort'].includes(key)));
      const page = { page: intParam(q.page, 1), size: intParam(q.size, 50, 500) };
      return ok(await publicData.offered(callerOf(request), request.params.resource, filters, page));
    },
  );

  app.post<{ Params: Params; Body: { ids?: unknown; orgIds?: unknown } }>(
    '/api/resources/:resource/distribute',
    async (request) => {
      const { ids, orgIds } = request.body ?? {};
      const copied = await publicData.distribute(
        callerOf(request),
        request.params.resource,
        idList(ids),
        idList(orgIds),
      );
      return ok({ copied });
    },
  );

  app.post<{ Params: Params }>('/api/resources/:resource/sync', async (request) =>
    ok({ copied: await publicData.sync(callerOf(request), request.params.resource) }),
  );

  app.post<{ Params: Params; Body: { ids?: unknown } }>('/api/resources/:resource/importPublic', async (request) =>
    ok({
      copied: await publicData.importPublic(callerOf(request), request.params.resource, idList(request.body?.ids)),
    }),
  );

  app.post<{ Params: Params; Body: { ids?: unknown } }>('/api/resources/:resource/confirmUpdate', async (request) =>
    ok({
      copied: await publicData.confirmUpdate(callerOf(request), request.params.resource, idList(request.body?.ids)),
    }),
  );
}

/**
 * The spec's names for the public-data calls of one resource (spec 7.4 syncDictionary / issueDictionary,
 * 7.6 syncForm / issueForm …, subLaboratoryImport / dataSynchronization), answered by the same service.
 * Values may come in the query or the body.
 */
export interface PublicDataCalls {
  /** Resource of the screen whose public data the calls move. */
  resource: string;
  /** Takes public data by the caller's lab type: a main lab synchronises all, another lab imports the chosen ids; syncFlag 2 confirms updates. */
  sync?: string;
  /** The base organisation distributes the chosen ids to the chosen orgIds. */
  issue?: string;
  /** A main lab synchronises all; syncFlag 2 confirms the updates of the chosen ids. */
  mainSync?: string;
  /** A sub lab imports the chosen ids. */
  subImport?: string;
  /** Answer with the workflow sync calls' envelope (code 20000) instead of resultCode 200. */
  workflowEnvelope?: boolean;
}

const inputOf = (request: FastifyRequest): Input => ({
  ...(request.query as Input),
  ...((request.body as Input | null | undefined) ?? {}),
});

export function publicDataCalls(app: FastifyInstance, kernel: Kernel, calls: PublicDataCalls) {
  const { publicData } = kernel;
  const { resource } = calls;
  /** The workflow sync calls answer code 20000 (spec 7.5); a refusal keeps the usual error envelope. */
  const answer = (copied: number) =>
    calls.workflowEnvelope ? { code: 20000, message: 'success', data: { copied } } : ok({ copied });
  const route = (path: string | undefined, run: (request: FastifyRequest, input: Input) => Promise<number>) => {
    if (path) app.post(path, async (request) => answer(await run(request, inputOf(request))));
  };
  route(calls.sync, (request, { ids, syncFlag }) =>
    publicData.syncByLabType(callerOf(request), resource, idList(ids), syncFlag),
  );
  route(calls.mainSync, (request, { ids, syncFlag }) =>
    Number(syncFlag) === 2
      ? publicData.confirmUpdate(callerOf(request), resource, idList(ids))
      : publicData.sync(callerOf(request), resource),
  );
  route(calls.subImport, (request, { ids }) => publicData.importPublic(callerOf(request), resource, idList(ids)));
  route(calls.issue, (request, { ids, orgIds }) =>
    publicData.distribute(callerOf(request), resource, idList(ids), idList(orgIds)),
  );
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { actorOf } from '../http/request.js';
import { forward } from '../http/forward.js';
import { getOrganization } from '../identity/organizations.js';

/**
 * The spec's names for the public-data calls of a resource (spec 7.4 syncDictionary / issueDictionary,
 * 7.6 syncForm / issueForm …, subLaboratoryImport / dataSynchronization), each answered by the generic
 * public-data routes of the resource (resources/publicData.ts): the same guard (admins, never an only-lab),
 * the same copying rules, the same operation log. Values may come in the query or the body.
 */
type Input = Record<string, unknown>;

/** Spec callers send ids as a comma-joined text (spec 7.5); the screens send arrays. */
export const idList = (value: unknown): number[] =>
  (Array.isArray(value) ? value : String(value ?? '').split(','))
    .map((v) => Number(v))
    .filter((n) => Number.isInteger(n) && n > 0);

const input = (request: FastifyRequest): Input => ({
  ...(request.query as Input),
  ...((request.body as Input | null | undefined) ?? {}),
});

/** The workflow sync calls answer code 20000 (spec 7.5); a refusal keeps the usual error envelope. */
function code20000(reply: FastifyReply, body: unknown) {
  const result = body as { resultCode?: number; resultMessage?: string; resultObject?: unknown };
  if (reply.statusCode !== 200) return body;
  return { code: 20000, message: result.resultMessage ?? 'success', data: result.resultObject };
}

export interface PublicDataCalls {
  /** Resource of the screen (schemas/screens) whose public data the calls move. */
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

export function registerPublicDataCalls(app: FastifyInstance, ctx: AppContext, calls: PublicDataCalls) {
  const base = `/api/resources/${calls.resource}`;
  const answer = (reply: FastifyReply, body: unknown) => (calls.workflowEnvelope ? code20000(reply, body) : body);
  const take = (request: FastifyRequest, reply: FastifyReply, path: string, body: object) =>
    forward(request, reply, 'POST', `${base}/${path}`, body).then((result) => answer(reply, result));

  if (calls.sync) {
    app.post(calls.sync, async (request, reply) => {
      const { ids, syncFlag } = input(request);
      const org = await getOrganization(ctx.db, actorOf(request).orgId);
      const path = Number(syncFlag) === 2 ? 'confirmUpdate' : org?.labType === 'main' ? 'sync' : 'importPublic';
      return take(request, reply, path, { ids: idList(ids) });
    });
  }
  if (calls.mainSync) {
    app.post(calls.mainSync, async (request, reply) => {
      const { ids, syncFlag } = input(request);
      return take(request, reply, Number(syncFlag) === 2 ? 'confirmUpdate' : 'sync', { ids: idList(ids) });
    });
  }
  if (calls.subImport) {
    app.post(calls.subImport, async (request, reply) =>
      take(request, reply, 'importPublic', { ids: idList(input(request).ids) }),
    );
  }
  if (calls.issue) {
    app.post(calls.issue, async (request, reply) => {
      const { ids, orgIds } = input(request);
      return take(request, reply, 'distribute', { ids: idList(ids), orgIds: idList(orgIds) });
    });
  }
}

/** Spec 7.6: the specimen characters' public data, for a sub lab (import) and the main lab (synchronisation). */
export async function specimenCharacterRoutes(app: FastifyInstance, ctx: AppContext) {
  registerPublicDataCalls(app, ctx, {
    resource: 'specimenCharacter',
    subImport: '/api/specimen/character/subLaboratoryImport',
    mainSync: '/api/specimen/character/dataSynchronization',
  });
}

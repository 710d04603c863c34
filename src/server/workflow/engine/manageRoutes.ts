import type { FastifyInstance, FastifyRequest } from 'fastify';
import { can } from '../../../shared/access/can.js';
import { isInstanceStatus } from '../../../shared/workflow/instanceStatus.js';
import { t } from '../../../shared/i18n/messages.js';
import { screenAllows } from '../../../shared/screens/access.js';
import type { Kernel } from '../../kernel/context.js';
import { badRequest, forbidden, notFound, ok, okMessage } from '../../kernel/http/envelope.js';
import { actorOf, intParam } from '../../kernel/http/request.js';
import { deleteInstance, listDeployments, listInstances, setSuspended } from './manage.js';
import type { WorkflowEngine } from './service.js';
import { startForSpecimen } from './specimen.js';
import { textIdParams } from '../../kernel/http/input.js';

/**
 * The workflow manager's calls (spec 2.1 /activiti/manage) and the sample-entry screen's start
 * command: reading is for those who may read process models, changing an instance for admins, all
 * inside the caller's own organisation.
 */
export async function manageRoutes(app: FastifyInstance, ctx: Kernel, engine: WorkflowEngine) {
  const { db } = ctx;

  /** The workflow manager's lists: deployments and instances of the caller's organisation. */
  app.get<{ Querystring: { key?: string } }>('/api/workflow/deployments', async (request) => {
    const actor = actorOf(request);
    if (!can(actor, 'processModel', 'read', { orgId: actor.orgId })) throw forbidden();
    return ok(await listDeployments(db, actor.orgId, request.query.key));
  });

  app.get<{ Querystring: Record<string, string | undefined> }>('/api/workflow/process/list', async (request) => {
    const actor = actorOf(request);
    if (!can(actor, 'processModel', 'read', { orgId: actor.orgId })) throw forbidden();
    const q = request.query;
    if (q.status && !isInstanceStatus(q.status)) throw badRequest('common.invalid');
    return ok(
      await listInstances(db, actor.orgId, { ...q, page: intParam(q.page, 1), size: intParam(q.size, 50, 500) }),
    );
  });

  /** Suspend, resume and delete change or end someone's work: the organisation's admins only. */
  function adminOf(request: FastifyRequest) {
    const actor = actorOf(request);
    if (!can(actor, 'processModel', 'delete', { orgId: actor.orgId })) throw forbidden();
    return actor;
  }

  app.post<{ Params: { id: string } }>(
    '/api/workflow/process/:id/suspend',
    { schema: { params: textIdParams } },
    async (request) => {
      await setSuspended(db, adminOf(request), request.params.id, true);
      return okMessage(request, 'workflow.suspended', null);
    },
  );

  app.post<{ Params: { id: string } }>(
    '/api/workflow/process/:id/resume',
    { schema: { params: textIdParams } },
    async (request) => {
      await setSuspended(db, adminOf(request), request.params.id, false);
      return okMessage(request, 'workflow.resumed', null);
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/api/workflow/process/:id',
    { schema: { params: textIdParams } },
    async (request) => {
      await deleteInstance(db, adminOf(request), request.params.id);
      return okMessage(request, 'workflow.instanceDeleted', null);
    },
  );

  /** A specimen screen's row command: the specimen starts the process of its category (when its entry could not). */
  app.post<{ Params: { id: string } }>('/api/workflow/specimen/:id/start', async (request) => {
    const actor = actorOf(request);
    const screen = ctx.screens.owner('specimen');
    if (!screen || !screenAllows(screen, 'update', actor.roles)) throw forbidden();
    const id = Number(request.params.id);
    if (!Number.isInteger(id) || id <= 0) throw notFound();
    const started = await startForSpecimen(db, ctx.records, engine, actor, id, request.locale);
    return ok(
      started,
      t('workflow.specimenStarted', request.locale, { barcode: started.businessKey, name: started.processName }),
    );
  });
}

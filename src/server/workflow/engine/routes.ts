import type { FastifyInstance, FastifyRequest } from 'fastify';
import { can } from '../../../shared/access/can.js';
import type { Kernel } from '../../kernel/context.js';
import { badRequest, forbidden, notFound, ok, okMessage } from '../../kernel/http/envelope.js';
import { actorOf, callerOf } from '../../kernel/http/request.js';
import { getDeployment } from './deployments.js';
import { manageRoutes } from './manageRoutes.js';
import { rollbackChoices } from './rollback.js';
import { mayHandle, taskFormPage, type WorkflowEngine } from './service.js';
import { engineOf } from './engineOf.js';
import { recordTasksOnSpecimens, specimenTaskStep, taskSteps, withSpecimens } from './specimen.js';
import { getInstance, getTask, groupsOf, historyOf, OPEN_FOR_USER, TASK, type TaskRow } from './store.js';
import { tellDashboards } from '../../kernel/dashboard/dashboard.js';
import { textIdParams } from '../../kernel/http/input.js';
import { catchesOf } from './catches.js';
import { pollTimersWhenListening } from './timerPoller.js';
import { batchCompleteRoute } from './batch.js';

/** The process and task calls of the running workflow (issue 5), in the spec's resultCode envelope. */
const startBody = {
  type: 'object',
  properties: {
    modelKey: { type: 'string', minLength: 1, maxLength: 100 },
    deploymentId: { type: 'string', minLength: 1, maxLength: 100 },
    businessKey: { type: ['string', 'null'], maxLength: 200 },
    variables: { type: 'object' },
  },
} as const;

const completeBody = {
  type: ['object', 'null'],
  properties: {
    result: { type: ['string', 'null'], maxLength: 40 },
    variables: { type: 'object' },
    targetElementId: { type: ['string', 'null'], maxLength: 200 },
  },
} as const;

const account = { type: 'string', minLength: 1, maxLength: 100 } as const;

const deliverBody = {
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    processInstanceId: { type: ['string', 'null'], maxLength: 100 },
    businessKey: { type: ['string', 'null'], maxLength: 200 },
    variables: { type: 'object' },
  },
} as const;

type CompleteBody = {
  result?: string | null;
  variables?: Record<string, unknown>;
  targetElementId?: string | null;
} | null;

/**
 * Every running process instance is recovered once the server answers (no request waits for it); a
 * stop waits for the recovery to notice and end before the database closes.
 */
function recoverWhenListening(app: FastifyInstance, engine: WorkflowEngine) {
  const recovery = new AbortController();
  let recovered: Promise<void> = Promise.resolve();
  app.addHook('onListen', async () => {
    recovered = engine.recoverRunning(recovery.signal).then(
      ({ checked, repaired, failed }) => {
        // Tasks brought back in line mean the database was changed behind the server: worth a warning.
        const level = repaired + failed.length > 0 ? 'warn' : 'info';
        app.log[level]({ checked, repaired, failed: failed.length }, 'workflow: running process instances recovered');
        for (const f of failed)
          app.log.error(
            { instance: f.id, reason: f.reason },
            'workflow: a running process instance could not be recovered',
          );
      },
      (error: unknown) => app.log.error({ err: error }, 'workflow: the recovery of running process instances stopped'),
    );
  });
  app.addHook('preClose', async () => {
    recovery.abort();
    await recovered;
  });
}

export async function workflowEngineRoutes(app: FastifyInstance, ctx: Kernel) {
  const { db } = ctx;
  const engine = engineOf(ctx);
  recoverWhenListening(app, engine);
  pollTimersWhenListening(app, engine);
  batchCompleteRoute(app, ctx);

  /**
   * A message to the instances waiting for it (an intermediate message catch, an event-based gateway's
   * message branch), by its name or id; narrowed to one instance or business key (a specimen's barcode).
   * Unless it names one instance, it also starts each deployed process whose message start event waits
   * for it (with the business key and variables). A signal reaches every instance of the organisation
   * waiting for it. The answer lists the instances reached and started.
   */
  for (const kind of ['message', 'signal'] as const)
    app.post<{
      Body: {
        name: string;
        processInstanceId?: string | null;
        businessKey?: string | null;
        variables?: Record<string, unknown>;
      };
    }>(`/api/workflow/${kind}`, { schema: { body: deliverBody } }, async (request) => {
      const actor = actorOf(request);
      if (!can(actor, 'processModel', 'read', { orgId: actor.orgId })) throw forbidden();
      const { name, processInstanceId, businessKey, variables } = request.body;
      const reached = await engine.deliver(actor, kind, name, {
        processInstanceId: kind === 'message' ? processInstanceId : null,
        businessKey: kind === 'message' ? businessKey : null,
        variables,
      });
      return okMessage(request, 'workflow.delivered', { processInstanceIds: reached });
    });

  app.post<{
    Body: {
      modelKey?: string;
      deploymentId?: string;
      businessKey?: string | null;
      variables?: Record<string, unknown>;
    };
  }>('/api/workflow/process/start', { schema: { body: startBody } }, async (request) => {
    const actor = actorOf(request);
    if (!can(actor, 'processModel', 'read', { orgId: actor.orgId })) throw forbidden();
    const { modelKey, deploymentId, businessKey, variables } = request.body;
    if (!modelKey && !deploymentId) throw badRequest('common.invalid');
    const id = await engine.start(actor, {
      modelKey,
      deploymentId,
      businessKey: businessKey ?? null,
      variables: variables ?? {},
    });
    return okMessage(request, 'workflow.started', { processInstanceId: id });
  });

  /** The specimen steps the designer offers a user task (lims:specimenStep), in the caller's language. */
  app.get('/api/workflow/specimen-steps', async (request) => ok(taskSteps(ctx, request.locale)));

  /**
   * Open tasks the caller may work: assigned to them, naming them, or one of their positions (the first
   * 500). Filters: processKey, businessKey, processInstanceId, and candidateGroup: the tasks offered to
   * that group, written as the model writes it in candidateGroups (Activiti's taskCandidateGroup).
   */
  app.get<{
    Querystring: { processKey?: string; businessKey?: string; processInstanceId?: string; candidateGroup?: string };
  }>('/api/workflow/task/todo', async (request) => {
    const actor = actorOf(request);
    const groups = await groupsOf(db, actor.id);
    const q = request.query;
    // Tasks of suspended instances stay listed (marked by instanceStatus): the user sees why they wait.
    const rows = await db.query<TaskRow>(
      `select ${TASK}, i.process_key as "processKey", i.business_key as "businessKey", i.status as "instanceStatus", d.name as "processName"
         from workflow_task t join process_instance i on i.id = t.instance_id join process_deployment d on d.id = i.deployment_id
       where ${OPEN_FOR_USER}
         and ($6::text is null or i.process_key = $6) and ($7::text is null or i.business_key = $7) and ($8::text is null or i.id = $8)
         and ($9::text is null or $9 = any(t.candidate_groups))
       order by t.priority desc, t.created_at, t.name limit 500`,
      [
        actor.orgId,
        actor.userAccount,
        [actor.userAccount, String(actor.id)],
        groups,
        actor.roles.includes('admin'),
        q.processKey ?? null,
        q.businessKey ?? null,
        q.processInstanceId ?? null,
        q.candidateGroup ?? null,
      ],
    );
    return ok(await withSpecimens(ctx, actor.orgId, rows));
  });

  app.get<{ Querystring: { processKey?: string; businessKey?: string } }>(
    '/api/workflow/task/done',
    async (request) => {
      const actor = actorOf(request);
      const q = request.query;
      const rows = await db.query<TaskRow>(
        `select ${TASK}, i.process_key as "processKey", i.business_key as "businessKey", i.status as "instanceStatus", d.name as "processName"
         from workflow_task t join process_instance i on i.id = t.instance_id join process_deployment d on d.id = i.deployment_id
       where t.org_id = $1 and t.completed_by = $2 and ($3::text is null or i.process_key = $3) and ($4::text is null or i.business_key = $4)
       order by t.completed_at desc limit 500`,
        [actor.orgId, actor.id, q.processKey ?? null, q.businessKey ?? null],
      );
      return ok(await withSpecimens(ctx, actor.orgId, rows));
    },
  );

  app.post<{ Params: { taskId: string } }>('/api/workflow/task/:taskId/claim', async (request) => {
    await engine.claim(actorOf(request), request.params.taskId);
    return okMessage(request, 'workflow.claimed', null);
  });

  app.post<{ Params: { taskId: string } }>('/api/workflow/task/:taskId/unclaim', async (request) => {
    await engine.unclaim(actorOf(request), request.params.taskId);
    return okMessage(request, 'workflow.unclaimed', null);
  });

  app.post<{ Params: { taskId: string }; Body: { userAccount: string } }>(
    '/api/workflow/task/:taskId/delegate',
    { schema: { body: { type: 'object', required: ['userAccount'], properties: { userAccount: account } } } },
    async (request) => {
      await engine.delegate(actorOf(request), request.params.taskId, request.body.userAccount);
      return okMessage(request, 'workflow.delegated', null);
    },
  );

  app.post<{ Params: { taskId: string }; Body: { userAccount?: string | null; candidateGroup?: string | null } }>(
    '/api/workflow/task/:taskId/reassign',
    {
      schema: {
        body: {
          type: 'object',
          properties: {
            userAccount: { ...account, type: ['string', 'null'] },
            candidateGroup: { type: ['string', 'null'], maxLength: 100 },
          },
        },
      },
    },
    async (request) => {
      await engine.reassign(actorOf(request), request.params.taskId, request.body);
      return okMessage(request, 'workflow.reassigned', null);
    },
  );

  app.post<{ Params: { taskId: string }; Body: CompleteBody }>(
    '/api/workflow/task/:taskId/complete',
    { schema: { body: completeBody } },
    async (request) => {
      const body = request.body ?? {};
      const input = {
        result: body.result ?? undefined,
        variables: body.variables ?? {},
        targetElementId: body.targetElementId ?? undefined,
      };
      const task = await getTask(db, request.params.taskId);
      const step = specimenTaskStep(ctx, callerOf(request));
      await engine.complete(actorOf(request), request.params.taskId, input, request.locale, step);
      // A delegate's completion hands the task back to its owner: the specimen has seen no step yet.
      if (task?.owner && !input.result?.startsWith('rollback_')) return okMessage(request, 'workflow.resolved', null);
      if (task) await recordTasksOnSpecimens(ctx, actorOf(request), [task], input.result);
      await tellDashboards(ctx.push, actorOf(request).orgId);
      return okMessage(
        request,
        input.result?.startsWith('rollback_') ? 'workflow.sentBack' : 'workflow.completed',
        null,
      );
    },
  );

  /**
   * One task as its dialog shows it: the task, its instance, the form page its formKey names (elements
   * and choices) and the tasks it may be sent back to. For those who may work it, or who did.
   */
  app.get<{ Params: { taskId: string } }>('/api/workflow/task/:taskId', async (request) => {
    const actor = actorOf(request);
    const task = await getTask(db, request.params.taskId);
    if (!task || task.orgId !== actor.orgId) throw notFound();
    const mayWork = task.status === 'active' && (await mayHandle(db, actor, task));
    const mayAdminister =
      task.status === 'active' &&
      (actor.roles.includes('admin') || (task.owner ?? task.assignee) === actor.userAccount);
    if (!mayWork && !mayAdminister && task.completedBy !== actor.id) throw forbidden();
    const instance = (await getInstance(db, task.instanceId))!;
    const deployment = await getDeployment(db, instance.deploymentId);
    return ok({
      task,
      instance: {
        id: instance.id,
        processKey: instance.processKey,
        processName: deployment?.name ?? instance.processKey,
        businessKey: instance.businessKey,
        status: instance.status,
      },
      form: (await taskFormPage(db, ctx.ports.formPages, task)) ?? null,
      rollbackTargets: task.status === 'active' ? await rollbackChoices(db, task) : [],
      mayComplete: mayWork && instance.status === 'running',
      mayAdminister,
    });
  });

  async function instanceFor(request: FastifyRequest<{ Params: { id: string } }>) {
    const actor = actorOf(request);
    const instance = await getInstance(db, request.params.id);
    if (!instance || instance.orgId !== actor.orgId) throw notFound();
    return instance;
  }

  app.get<{ Params: { id: string } }>(
    '/api/workflow/process/:id',
    { schema: { params: textIdParams } },
    async (request) => {
      const row = await instanceFor(request);
      // The engine's saved state is ours to read, not the browser's.
      const instance = { ...row, engineState: undefined, runtime: undefined };
      const children = await db.query<{ id: string; processKey: string; status: string }>(
        'select id, process_key as "processKey", status from process_instance where parent_id = $1 order by started_at',
        [instance.id],
      );
      const tasks = await db.query<TaskRow>(
        `select ${TASK} from workflow_task t where t.instance_id = $1 and t.status = 'active' order by t.created_at, t.name`,
        [instance.id],
      );
      // What it waits on besides people: timers with their due time, messages and signals by name.
      const catches = (await catchesOf(db, instance.id)).map(({ elementId, kind, name, dueAt }) => ({
        elementId,
        kind,
        name,
        dueAt,
      }));
      return ok({ ...instance, children, tasks, catches });
    },
  );

  /** The 流程追踪 viewer's data: the deployed diagram, elements passed, elements waiting, history. */
  app.get<{ Params: { id: string } }>(
    '/api/workflow/process/:id/trace',
    { schema: { params: textIdParams } },
    async (request) => {
      const instance = await instanceFor(request);
      const deployment = await getDeployment(db, instance.deploymentId);
      const history = await historyOf(db, instance.id);
      const active = await db.query<{ elementId: string }>(
        `select distinct element_id as "elementId" from workflow_task where instance_id = $1 and status = 'active'`,
        [instance.id],
      );
      const calls = await db.query<{ elementId: string }>(
        `select distinct regexp_replace(parent_execution_id, '_[^_]+$', '') as "elementId" from process_instance where parent_id = $1 and status = 'running'`,
        [instance.id],
      );
      // Elements ended and sequence flows taken: the path the viewer draws as done.
      const finished = [
        ...new Set(history.filter((h) => h.event === 'end' || h.event === 'take').map((h) => h.elementId)),
      ];
      return ok({
        bpmnXml: deployment?.xml ?? null,
        processKey: instance.processKey,
        businessKey: instance.businessKey,
        status: instance.status,
        finished,
        active: [...new Set([...active, ...calls, ...(await catchesOf(db, instance.id))].map((a) => a.elementId))],
        history: history.filter((h) => h.event !== 'take'),
      });
    },
  );

  await manageRoutes(app, ctx, engine);
}

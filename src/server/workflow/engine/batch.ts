import type { FastifyInstance } from 'fastify';
import type { Kernel } from '../../kernel/context.js';
import { badRequest, okMessage } from '../../kernel/http/envelope.js';
import { actorOf, callerOf } from '../../kernel/http/request.js';
import { tellDashboards } from '../../kernel/dashboard/dashboard.js';
import { engineOf } from './engineOf.js';
import { recordTasksOnSpecimens, specimenTaskStep } from './specimen.js';
import { tasksWithKeys } from './store.js';

const batchBody = {
  type: 'object',
  required: ['taskIds'],
  properties: {
    taskIds: { type: 'array', items: { type: 'string', minLength: 1, maxLength: 100 }, maxItems: 200 },
    variables: { type: 'object' },
    // Passed or not: a gateway after the task routes on it. Sending back names a target per task: one by one.
    result: { type: 'string', enum: ['pass', 'unpass'] },
  },
} as const;

/**
 * 批量办理: tasks of one kind (a tray's receipt tasks) completed with the same form values and result in one step,
 * each its own completion (its process moves, its specimen takes its step): all of them or none, a
 * refusal naming its task (业务编号 and name) — one another user took, a specimen that cannot take the
 * step, values its form refuses. Sending back asks for each task's own target, so is done one by one.
 */
export function batchCompleteRoute(app: FastifyInstance, ctx: Kernel) {
  const engine = engineOf(ctx);
  app.post<{ Body: { taskIds: string[]; variables?: Record<string, unknown>; result?: 'pass' | 'unpass' } }>(
    '/api/workflow/task/batchComplete',
    { schema: { body: batchBody } },
    async (request) => {
      const actor = actorOf(request);
      const ids = [...new Set(request.body.taskIds)];
      if (ids.length === 0) throw badRequest('publicData.noRows');
      const found = new Map((await tasksWithKeys(ctx.db, ids)).map((t) => [t.id, t]));
      const tasks = ids.map((id) => {
        const task = found.get(id);
        const own = task?.orgId === actor.orgId ? task : undefined;
        return {
          id,
          row: own,
          label: own ? `${own.businessKey ?? ''} ${own.name ?? own.elementId}`.trim() : id,
        };
      });
      const { variables = {}, result } = request.body;
      await engine.completeMany(
        actor,
        tasks,
        { variables, result },
        request.locale,
        specimenTaskStep(ctx, callerOf(request)),
      );
      // A delegate's completion hands the task back to its owner: the specimen has seen no step yet.
      const completed = tasks.flatMap(({ row }) => (row && !row.owner ? [row] : []));
      await recordTasksOnSpecimens(ctx, actor, completed, result);
      await tellDashboards(ctx.push, actor.orgId);
      return okMessage(request, 'workflow.batchCompleted', { completed: tasks.length }, { n: tasks.length });
    },
  );
}

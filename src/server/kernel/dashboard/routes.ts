import type { FastifyInstance } from 'fastify';
import type { Kernel } from '../context.js';
import { ok } from '../http/envelope.js';
import { actorOf } from '../http/request.js';
import { dashboardOf, labDay } from './dashboard.js';
import { groupScope } from './scope.js';

/** GET /api/dashboard: the signed-in user's counts of today, each a link to the list it counts. */
export async function dashboardRoutes(app: FastifyInstance, kernel: Kernel) {
  app.get('/api/dashboard', async (request) => {
    const actor = actorOf(request);
    const day = labDay(kernel.now(), actor.timeZone ?? kernel.config.timeZone);
    const scope = await groupScope(kernel.records, kernel.db, actor, day.date);
    return ok(await dashboardOf(kernel.dashboard, kernel.screens, { db: kernel.db, actor, day, scope }));
  });
}

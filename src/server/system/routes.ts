import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../kernel/context.js';
import { roleRoutes } from '../roles/screen.js';
import { userScreenRoutes } from '../users/userScreen.js';

/** System maintenance (spec 2.2 /laboratoryManager/system): the screens whose records live in their own tables. */
export async function systemRoutes(app: FastifyInstance, ctx: AppContext) {
  await app.register(async (scope) => roleRoutes(scope, ctx));
  await app.register(async (scope) => userScreenRoutes(scope, ctx));
}

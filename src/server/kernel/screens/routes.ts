import type { FastifyInstance } from 'fastify';
import { hasRole } from '../../../shared/access/can.js';
import { screenAllows } from '../../../shared/screens/access.js';
import type { Kernel } from '../context.js';
import { forbidden, notFound, ok } from '../http/envelope.js';
import { actorOf } from '../http/request.js';
import { textIdParams } from '../http/input.js';
import { servedScreen } from './served.js';

/** The screen schemas the browser renders (issue 7), each to the roles its file names. */
export async function screenRoutes(app: FastifyInstance, ctx: Kernel) {
  /** One screen schema; 403 when the caller's roles may not read it. */
  app.get<{ Params: { id: string } }>('/api/ui/screens/:id', { schema: { params: textIdParams } }, async (request) => {
    const screen = ctx.screens.get(request.params.id);
    if (!screen) throw notFound();
    if (!screenAllows(screen, 'read', actorOf(request).roles)) throw forbidden();
    return ok(servedScreen(screen, ctx.screens.storageOf(screen) ?? screen, actorOf(request)));
  });

  /** Screen files the server could not take, with file and JSON path (administrators only). */
  app.get('/api/ui/screen-problems', async (request) => {
    if (!hasRole(actorOf(request), ['admin'])) throw forbidden();
    return ok(ctx.screens.problems());
  });
}

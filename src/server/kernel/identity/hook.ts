import type { FastifyInstance } from 'fastify';
import { t } from '../../../shared/i18n/messages.js';
import type { Kernel } from '../context.js';
import { sendError } from '../http/envelope.js';

/**
 * Every route needs a live bearer token unless it declares itself public (config.public): decided by
 * the route the router matched, never by the URL's text, so that `/%61pi/user/me` (the same route,
 * encoded) is refused as `/api/user/me` is. A request that matches no route answers 404 from the
 * not-found handler (which serves the app's pages). Unknown, revoked or expired tokens get 401; a
 * token left unused past the idle limit gets 511 (spec 8) and is revoked.
 */
export function installAuthHook(app: FastifyInstance, ctx: Kernel): void {
  app.decorateRequest('actor', undefined);
  app.addHook('onRequest', async (request, reply) => {
    if (request.is404 || request.routeOptions.config?.public) return;
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match?.[1]) return sendError(reply, 401, t('auth.required', request.locale));
    const session = await ctx.sessions.check(match[1], ctx.wallNow(), ctx.config.idleTimeoutSeconds);
    if (session.status === 'idle') return sendError(reply, 511, t('auth.idle', request.locale));
    if (session.status === 'unknown') return sendError(reply, 401, t('auth.required', request.locale));
    request.actor = { ...session.user, timeZone: session.user.timeZone ?? ctx.config.timeZone };
  });
}

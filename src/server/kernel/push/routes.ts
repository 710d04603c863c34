import type { FastifyInstance, FastifyRequest } from 'fastify';
import websocket from '@fastify/websocket';
import { can } from '../../../shared/access/can.js';
import type { Kernel } from '../context.js';
import { forbidden, notFound, ok } from '../http/envelope.js';
import { actorOf } from '../http/request.js';
import { ALERT_TYPES, type PushAlert } from './alert.js';
import { CLOSE } from './hub.js';

/** Browsers only send heartbeats; anything large is not ours. */
const MAX_INCOMING_BYTES = 4096;

const sendSchema = {
  body: {
    type: 'object',
    required: ['userIds', 'type', 'title', 'message'],
    properties: {
      userIds: { type: 'array', items: { type: 'integer' }, minItems: 1, maxItems: 500 },
      type: { type: 'string', enum: ALERT_TYPES },
      title: { type: 'string', minLength: 1, maxLength: 100 },
      message: { type: 'string', maxLength: 1000 },
    },
  },
};

type SendBody = PushAlert & { userIds: number[] };

type Admission = { userId: number; orgId: number } | { code: number; reason: string };

/**
 * A browser cannot put an Authorization header on a WebSocket, so the token comes in the query string,
 * or as the sub-protocol `bearer.<token>` for clients that would rather keep it out of URLs.
 */
function tokenOf(request: FastifyRequest): string | undefined {
  const query = request.query as { token?: unknown };
  if (typeof query.token === 'string' && query.token) return query.token;
  const offered = request.headers['sec-websocket-protocol'] ?? '';
  const bearer = offered
    .split(',')
    .map((p) => p.trim())
    .find((p) => p.startsWith('bearer.'));
  return bearer?.slice('bearer.'.length) || undefined;
}

async function admit(ctx: Kernel, request: FastifyRequest<{ Params: { userId: string } }>): Promise<Admission> {
  const token = tokenOf(request);
  if (!token) return { code: CLOSE.unauthorized, reason: 'unauthorized' };
  const session = await ctx.sessions.check(token, ctx.wallNow(), ctx.config.idleTimeoutSeconds);
  if (session.status === 'idle') return { code: CLOSE.idle, reason: 'idle' };
  if (session.status === 'unknown') return { code: CLOSE.unauthorized, reason: 'unauthorized' };
  const ownChannel = String(session.user.id) === request.params.userId;
  return ownChannel
    ? { userId: session.user.id, orgId: session.user.orgId }
    : { code: CLOSE.forbidden, reason: 'forbidden' };
}

/** Each target's organisation and its parent, for `manages`; a user who does not exist is absent. */
async function targetsOf(ctx: Kernel, userIds: number[]) {
  return ctx.db.query<{ id: number; orgId: number; parentOrgId: number | null }>(
    `select u.id, u.org_id as "orgId", o.parent_id as "parentOrgId"
       from app_user u join organization o on o.id = u.org_id
      where u.id = any($1::int[])`,
    [userIds],
  );
}

/**
 * WebSocket support for the whole app, installed on the root instance before any route and before the
 * auth hook: once the server takes upgrade requests at all, the plugin must see every one of them (also
 * those refused early, like a 401) to close it, or its connection stays half open and holds up a stop.
 */
export async function installPushSockets(app: FastifyInstance, ctx: Kernel) {
  // Added before the plugin so it runs before the plugin's own preClose, which closes sockets without a code.
  app.addHook('preClose', (done) => {
    ctx.push.sayGoodbye();
    done();
  });
  await app.register(websocket, { options: { maxPayload: MAX_INCOMING_BYTES } });
}

/** The push channel of spec 4 / 7.7, and the administrator's call that sends an alert through it. */
export async function pushRoutes(app: FastifyInstance, ctx: Kernel) {
  // Closing with a code after the upgrade, rather than refusing it with an HTTP status, is what lets the
  // browser tell "sign in again" (4401, 4511) from "wrong user" (4403): it never sees a refused upgrade's status.
  const admissions = new WeakMap<FastifyRequest, Admission>();
  app.get<{ Params: { userId: string } }>(
    '/api/websocket/:userId',
    {
      websocket: true,
      config: { public: true },
      // The token is in the URL; request logging at info level would write it to the log.
      logLevel: 'warn',
      preHandler: async (request) => {
        if (request.ws) admissions.set(request, await admit(ctx, request));
      },
    },
    (socket, request) => {
      const admission = admissions.get(request) ?? { code: CLOSE.unauthorized, reason: 'unauthorized' };
      if ('code' in admission) socket.close(admission.code, admission.reason);
      else ctx.push.attach(admission.userId, admission.orgId, socket);
    },
  );

  app.post<{ Body: SendBody }>('/api/push/send', { schema: sendSchema }, async (request) => {
    const actor = actorOf(request);
    if (!can(actor, 'push', 'create')) throw forbidden();
    const { userIds, type, title, message } = request.body;
    const recipients = [...new Set(userIds)];
    const targets = await targetsOf(ctx, recipients);
    if (targets.length !== recipients.length) throw notFound();
    if (!targets.every((target) => can(actor, 'push', 'create', target))) throw forbidden();
    await ctx.push.pushToUsers(recipients, { type, title, message });
    return ok({ delivered: recipients.length });
  });
}

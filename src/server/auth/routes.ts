import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { t } from '../../shared/i18n/messages.js';
import { checkPasswordChange, type PasswordChange } from '../../shared/password/policy.js';
import type { Kernel } from '../kernel/context.js';
import { badRequest, okMessage, ok } from '../kernel/http/envelope.js';
import { actorOf } from '../kernel/http/request.js';
import { findForLogin, passwordHashOf, rehashPassword, setPassword, getUser } from '../kernel/identity/accounts.js';
import { clearFailures, guardState, minutesOf, recordFailure } from '../kernel/identity/lockout.js';
import { hashPassword, isOutdated, verifyNobody, verifyPassword } from '../kernel/identity/passwords.js';
import { issueToken, revokeToken, revokeUserTokens } from '../kernel/identity/sessions.js';
import { appendLog } from '../kernel/audit/log.js';
import { byAddress, throttle } from '../kernel/http/throttle.js';

const CLIENT_ID = 'laboratory';

interface TokenForm {
  grant_type?: string;
  scope?: string;
  username?: string;
  password?: string;
}

/** OAuth2-style refusal: the error code clients branch on, and a message a person can read. */
function refuse(reply: FastifyReply, status: number, error: string, message: string) {
  return reply.code(status).send({ error, error_description: message, resultCode: status, resultMessage: message });
}

/** The name a sign-in is for, as the account is looked up: trimmed (spec 5). */
const nameOf = (form: TokenForm | undefined) => (typeof form?.username === 'string' ? form.username.trim() : '');

/**
 * Sign-in (spec 7.1): password grant for the 'laboratory' client. Every failed sign-in gets the same
 * answer whether or not the account exists (issue 20): the same message, the same argon2 cost, and
 * the same lock after five wrong passwords in a row, since failures are counted per name typed
 * (kernel/identity/lockout.ts). The lock expires, longer each time; an administrator may lift it sooner.
 */
async function signIn(
  ctx: Kernel,
  request: FastifyRequest<{ Body: TokenForm; Querystring: { client_id?: string } }>,
  reply: FastifyReply,
) {
  const locale = request.locale;
  const clientId = request.query.client_id ?? (request.body as { client_id?: string } | undefined)?.client_id;
  if (clientId !== CLIENT_ID) return refuse(reply, 401, 'invalid_client', t('login.badClient', locale));
  const form = request.body ?? {};
  if (form.grant_type !== 'password') return refuse(reply, 400, 'unsupported_grant_type', t('login.badGrant', locale));
  const username = nameOf(form);
  const password = typeof form.password === 'string' ? form.password : '';
  if (!username) return refuse(reply, 400, 'invalid_request', t('login.username.required', locale));
  if (!password) return refuse(reply, 400, 'invalid_request', t('login.password.required', locale));

  const locked = (seconds: number) =>
    refuse(reply, 400, 'account_locked', t('login.lockedFor', locale, { n: minutesOf(seconds) }));
  const guard = await guardState(ctx.db, username);
  // A locked name is refused before any password is checked: a guesser learns nothing more while it lasts.
  if (guard.lockedSeconds > 0) return locked(guard.lockedSeconds);

  const account = await findForLogin(ctx.db, username);
  const right = account ? await verifyPassword(account.passwordHash, password) : await verifyNobody(password);
  // Sign-ins and locks go to the operation log too: who entered the LIMS, from where, is part of its audit.
  const audit = (action: 'login' | 'lock', after?: unknown) =>
    account &&
    appendLog(
      ctx.db,
      { id: account.id, userAccount: account.userAccount, orgId: account.orgId },
      { resource: 'user', recordId: account.id, action, ip: request.ip, after },
    );
  if (!account || !right) {
    const after = await recordFailure(ctx.db, username, {
      baseSeconds: ctx.config.lockoutSeconds,
      maxSeconds: ctx.config.lockoutMaxSeconds,
    });
    if (after.lockedSeconds > 0) {
      request.log.warn(
        { username: username.slice(0, 64), ip: request.ip, seconds: after.lockedSeconds },
        'sign-in name locked',
      );
      await audit('lock', { seconds: after.lockedSeconds });
      return locked(after.lockedSeconds);
    }
    return refuse(reply, 400, 'invalid_grant', t('login.badCredentials', locale));
  }
  await clearFailures(ctx.db, username);
  if (isOutdated(account.passwordHash)) await rehashPassword(ctx.db, account.id, await hashPassword(password));
  await audit('login');
  const token = await issueToken(ctx.db, account.id, ctx.wallNow(), ctx.config.tokenTtlSeconds);
  const user = await getUser(ctx.db, account.id);
  return {
    access_token: token,
    token_type: 'bearer',
    expires_in: ctx.config.tokenTtlSeconds,
    scope: 'all',
    principal: user && {
      id: user.id,
      userAccount: user.userAccount,
      userName: user.userName,
      orgId: user.orgId,
      passwordFlag: user.passwordFlag,
      roles: user.roles,
    },
  };
}

export async function authRoutes(app: FastifyInstance, ctx: Kernel) {
  const { perAddress, perAccount, windowSeconds } = ctx.config.authRate;
  // Throttled per client address and per account (issue 20), each call kind counted apart.
  const limits = (kind: string, accountOf: (request: FastifyRequest) => string | undefined) => [
    throttle(app, { name: `${kind}:address`, max: perAddress, windowSeconds, keyOf: byAddress }),
    throttle(app, { name: `${kind}:account`, max: perAccount, windowSeconds, keyOf: accountOf }),
  ];
  const signInLimits = limits('signIn', (request) => nameOf(request.body as TokenForm | undefined) || undefined);
  const passwordLimits = limits('password', (request) => request.actor && String(request.actor.id));

  app.post('/oauth/token', { config: { public: true }, preHandler: signInLimits }, (request, reply) =>
    signIn(ctx, request as FastifyRequest<{ Body: TokenForm; Querystring: { client_id?: string } }>, reply),
  );

  app.get('/api/user/logOut', async (request) => {
    await revokeToken(ctx.db, actorOf(request).tokenHash, ctx.wallNow());
    return ok(null);
  });

  /**
   * Change password (spec 2.5, 5): the old password must match and the new one follow the rules. It
   * clears passwordFlag and ends every session of the account, this one included.
   */
  const changePassword = async (request: FastifyRequest, form: PasswordChange) => {
    const actor = actorOf(request);
    const broken = checkPasswordChange(form);
    if (broken) throw badRequest(broken);
    const current = await passwordHashOf(ctx.db, actor.id);
    if (!current || !(await verifyPassword(current.passwordHash, form.password!)))
      throw badRequest('password.old.wrong');
    const hash = await hashPassword(form.newPassword!);
    await ctx.db.transaction(async (tx) => {
      await setPassword(tx, actor.id, hash, 0);
      await revokeUserTokens(tx, actor.id, ctx.wallNow());
      // The audit trail says who changed their password and when, never the password.
      await appendLog(tx, actor, { resource: 'user', recordId: actor.id, action: 'changePassword', ip: request.ip });
    });
    return okMessage(request, 'password.changed', null);
  };
  app.post<{ Body: PasswordChange }>('/api/user/changePassword', { preHandler: passwordLimits }, (request) =>
    changePassword(request, request.body ?? {}),
  );
  // The older handover screens call the same action with query parameters (spec 7.1).
  app.post<{ Querystring: PasswordChange }>('/api/handover/changePassword', { preHandler: passwordLimits }, (request) =>
    changePassword(request, request.query),
  );
}

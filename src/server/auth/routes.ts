import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { t } from '../../shared/i18n/messages.js';
import { checkPasswordChange, type PasswordChange } from '../../shared/password/policy.js';
import type { Kernel } from '../kernel/context.js';
import { badRequest, okMessage, ok } from '../kernel/http/envelope.js';
import { actorOf } from '../kernel/http/request.js';
import {
  findForLogin,
  MAX_FAILED_ATTEMPTS,
  passwordHashOf,
  recordFailedLogin,
  recordGoodLogin,
  setPassword,
  getUser,
} from '../kernel/identity/accounts.js';
import { hashPassword, verifyNobody, verifyPassword } from '../kernel/identity/passwords.js';
import { issueToken, revokeToken, revokeUserTokens } from '../kernel/identity/sessions.js';
import { appendLog } from '../kernel/audit/log.js';

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

/**
 * Sign-in (spec 7.1): password grant for the 'laboratory' client. The username is trimmed (spec 5).
 * Five wrong passwords in a row lock the account until an administrator unlocks it.
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
  const username = (form.username ?? '').trim();
  const password = form.password ?? '';
  if (!username) return refuse(reply, 400, 'invalid_request', t('login.username.required', locale));
  if (!password) return refuse(reply, 400, 'invalid_request', t('login.password.required', locale));

  const account = await findForLogin(ctx.db, username);
  if (!account) {
    await verifyNobody(password);
    return refuse(reply, 400, 'invalid_grant', t('login.badCredentials', locale));
  }
  if (account.locked) return refuse(reply, 400, 'account_locked', t('login.locked', locale));
  // Sign-ins and locks go to the operation log too: who entered the LIMS, from where, is part of its audit.
  const audit = (action: 'login' | 'lock') =>
    appendLog(
      ctx.db,
      { id: account.id, userAccount: account.userAccount, orgId: account.orgId },
      { resource: 'user', recordId: account.id, action, ip: request.ip },
    );
  if (!(await verifyPassword(account.passwordHash, password))) {
    const after = await recordFailedLogin(ctx.db, account.id);
    if (after.locked) {
      await audit('lock');
      return refuse(reply, 400, 'account_locked', t('login.locked', locale));
    }
    const left = MAX_FAILED_ATTEMPTS - after.failedAttempts;
    return refuse(reply, 400, 'invalid_grant', t('login.badCredentialsRemaining', locale, { n: left }));
  }
  await recordGoodLogin(ctx.db, account.id);
  await audit('login');
  const token = await issueToken(ctx.db, account.id, ctx.now(), ctx.config.tokenTtlSeconds);
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
  app.post('/oauth/token', { config: { public: true } }, (request, reply) =>
    signIn(ctx, request as FastifyRequest<{ Body: TokenForm; Querystring: { client_id?: string } }>, reply),
  );

  app.get('/api/user/logOut', async (request) => {
    await revokeToken(ctx.db, actorOf(request).tokenHash, ctx.now());
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
      await revokeUserTokens(tx, actor.id, ctx.now());
      // The audit trail says who changed their password and when, never the password.
      await appendLog(tx, actor, { resource: 'user', recordId: actor.id, action: 'changePassword', ip: request.ip });
    });
    return okMessage(request, 'password.changed', null);
  };
  app.post<{ Body: PasswordChange }>('/api/user/changePassword', (request) =>
    changePassword(request, request.body ?? {}),
  );
  // The older handover screens call the same action with query parameters (spec 7.1).
  app.post<{ Querystring: PasswordChange }>('/api/handover/changePassword', (request) =>
    changePassword(request, request.query),
  );
}

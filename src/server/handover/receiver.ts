import type { FastifyRequest } from 'fastify';
import { screenAllows } from '../../shared/screens/access.js';
import type { ScreenSchema } from '../../shared/screens/fields.js';
import type { Kernel } from '../kernel/context.js';
import { badRequest } from '../kernel/http/envelope.js';
import { actorOf } from '../kernel/http/request.js';
import { verifyNobody, verifyPassword } from '../kernel/identity/passwords.js';
import { appendLog } from '../kernel/audit/log.js';
import { findForLogin, getUser } from '../kernel/identity/accounts.js';
import {
  clearFailures,
  guardState,
  MAX_FAILED_ATTEMPTS,
  minutesOf,
  recordFailure,
} from '../kernel/identity/lockout.js';
import { HANDOVER } from './store.js';

/** The person who received, as their own account and password proved. */
export interface Receiver {
  id: number;
  userAccount: string;
  userName: string;
}

export interface Credentials {
  userAccount?: unknown;
  passwd?: unknown;
}

/**
 * The receiver confirms with their own account and password (domain: chain of custody), checked as a
 * sign-in is: an unknown account costs the same time as a known one, a wrong password counts towards
 * the name's lock (five in a row, kernel/identity/lockout.ts) and is kept in the operation log, a locked
 * name is refused. The caller is signed in and the receivers are listed to them, so here the tries left
 * may be told: it reveals no account a stranger did not know. The receiver must belong to the caller's laboratory and be allowed to handle
 * handovers. Nothing else is written here: the caller confirms afterwards in its own transaction.
 */
export async function checkReceiver(
  ctx: Kernel,
  request: FastifyRequest,
  screen: ScreenSchema,
  credentials: Credentials,
): Promise<Receiver> {
  const actor = actorOf(request);
  const account = typeof credentials.userAccount === 'string' ? credentials.userAccount.trim() : '';
  const password = typeof credentials.passwd === 'string' ? credentials.passwd : '';
  if (!account || !password) throw badRequest('handover.receiver.required');
  const refused = (reason: string) =>
    appendLog(ctx.db, actor, {
      resource: HANDOVER,
      recordId: null,
      action: 'receiverRefused',
      after: { userAccount: account, reason },
      ip: request.ip,
    });

  const guard = await guardState(ctx.db, account);
  if (guard.lockedSeconds > 0) {
    await refused('locked');
    throw badRequest('login.lockedFor', { n: minutesOf(guard.lockedSeconds) });
  }
  const login = await findForLogin(ctx.db, account);
  const right = login ? await verifyPassword(login.passwordHash, password) : await verifyNobody(password);
  if (!login || !right) {
    const policy = { baseSeconds: ctx.config.lockoutSeconds, maxSeconds: ctx.config.lockoutMaxSeconds };
    const after = await recordFailure(ctx.db, account, policy);
    await refused(login ? 'password' : 'unknown');
    if (after.lockedSeconds > 0) throw badRequest('login.lockedFor', { n: minutesOf(after.lockedSeconds) });
    if (!login) throw badRequest('login.badCredentials');
    throw badRequest('login.badCredentialsRemaining', { n: MAX_FAILED_ATTEMPTS - after.failures });
  }
  await clearFailures(ctx.db, account);
  // Whose password was checked, by whom: as much a part of the handover's audit as the refusals.
  await appendLog(ctx.db, actor, {
    resource: HANDOVER,
    recordId: null,
    action: 'receiverChecked',
    after: { userAccount: account },
    ip: request.ip,
  });
  const user = await getUser(ctx.db, login.id);
  if (!user || user.orgId !== actor.orgId) throw badRequest('handover.receiver.otherLab', { account });
  if (!screenAllows(screen, 'update', user.roles)) throw badRequest('handover.receiver.notAllowed', { account });
  return { id: user.id, userAccount: user.userAccount, userName: user.userName };
}

import { appendLog } from '../audit/log.js';
import type { Kernel } from '../context.js';
import { badRequest } from '../http/envelope.js';
import { findForLogin } from './accounts.js';
import type { Caller } from './actor.js';
import { clearFailures, guardState, minutesOf, recordFailure } from './lockout.js';
import { verifyPassword } from './passwords.js';

/**
 * An electronic signature (21 CFR Part 11 style): the signed-in user enters their password again for
 * the act they sign. A wrong password counts towards the account's lock like a failed sign-in, and both
 * the refusal and the signature are in the operation log with the meaning signed.
 */
export async function confirmSignature(
  kernel: Kernel,
  caller: Caller,
  meaning: string,
  password: string,
): Promise<void> {
  const { actor, ip } = caller;
  const guard = await guardState(kernel.db, actor.userAccount);
  if (guard.lockedSeconds > 0) throw badRequest('login.lockedFor', { n: minutesOf(guard.lockedSeconds) });
  const login = await findForLogin(kernel.db, actor.userAccount);
  const right = login !== undefined && password !== '' && (await verifyPassword(login.passwordHash, password));
  const log = (action: string) =>
    appendLog(kernel.db, actor, { resource: 'signature', recordId: null, action, after: { meaning }, ip });
  if (!right) {
    const policy = { baseSeconds: kernel.config.lockoutSeconds, maxSeconds: kernel.config.lockoutMaxSeconds };
    const after = await recordFailure(kernel.db, actor.userAccount, policy);
    await log('signatureRefused');
    if (after.lockedSeconds > 0) throw badRequest('login.lockedFor', { n: minutesOf(after.lockedSeconds) });
    throw badRequest('signature.badPassword');
  }
  await clearFailures(kernel.db, actor.userAccount);
  await log('signed');
}

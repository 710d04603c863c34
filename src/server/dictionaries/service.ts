import { BASE_ORG_ID, hasRole } from '../../shared/access/can.js';
import type { AuthUser } from '../kernel/identity/actor.js';
import type { Database, Queryable } from '../kernel/db/database.js';
import { forbidden, notFound } from '../kernel/http/envelope.js';
import { appendLog } from '../kernel/audit/log.js';
import { flagDictionaryCopies, getDictionary } from './repository.js';
import { type Dictionary } from '../kernel/dictionaries/lookup.js';

/**
 * Who may change a dictionary (spec 7.4): a lab's administrators keep its business dictionaries; the
 * system dictionaries (no organisation, shared by every lab) are kept by the base organisation's.
 */
export async function writableDictionary(db: Queryable, actor: AuthUser, id: number): Promise<Dictionary> {
  if (!hasRole(actor, ['admin'])) throw forbidden();
  const dictionary = await getDictionary(db, id);
  if (!dictionary) throw notFound();
  const mine = dictionary.orgId === null ? actor.orgId === BASE_ORG_ID : dictionary.orgId === actor.orgId;
  if (!mine) throw forbidden();
  return dictionary;
}

/**
 * Runs a change and logs it in one transaction: the change and its log entry stand or fall together.
 * A change of a base business dictionary (public data, spec 1) flags every lab's copy of it (syncFlag 2).
 */
export function changeDictionary<T>(
  db: Database,
  actor: AuthUser,
  ip: string | undefined,
  action: string,
  write: (tx: Queryable) => Promise<{ id: number; before?: unknown; result: T }>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const { id, before, result } = await write(tx);
    const after = action === 'delete' ? undefined : await getDictionary(tx, id);
    await appendLog(tx, actor, { resource: 'dictionary', recordId: id, action, before, after, ip });
    if (action === 'update' && after?.orgId === BASE_ORG_ID && after.type === 'bus') await flagDictionaryCopies(tx, id);
    return result;
  });
}

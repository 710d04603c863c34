import type { ScreenSchema } from '../../../shared/screens/fields.js';
import type { RecordValues } from '../../../shared/screens/predicate.js';
import { localDateTime } from '../../../shared/time.js';
import type { Queryable } from '../db/database.js';
import type { AuthUser } from '../identity/actor.js';
import { getOrganization } from '../identity/organizations.js';
import { nextNumber } from './repository.js';

/**
 * What the server writes into a new record and the user never types: the fields a schema stamps (who,
 * where, when) and the numbers it issues (prefix, day, the day's next number). Called under the
 * resource's write lock, so two records of one day never take the same number.
 */
export async function issuedValues(
  tx: Queryable,
  screen: ScreenSchema,
  actor: AuthUser,
  now: Date,
  data: RecordValues,
): Promise<RecordValues> {
  const issued: RecordValues = { ...data };
  const stamped = screen.fields.filter((f) => f.stamp);
  const orgName = stamped.some((f) => f.stamp === 'organization')
    ? ((await getOrganization(tx, actor.orgId))?.name ?? '')
    : '';
  for (const field of stamped) issued[field.key] = stampOf(field.stamp!, actor, orgName, now);
  for (const field of screen.fields) {
    if (!field.numbering) continue;
    const period = field.numbering.period === 'year' ? 4 : 10;
    const prefix = `${field.numbering.prefix}${localDateTime(now, actor.timeZone).slice(0, period).replaceAll('-', '')}-`;
    issued[field.key] = await nextNumber(tx, screen, actor.orgId, field.key, prefix, field.numbering.width);
  }
  return issued;
}

/** A stamp's value: the signed-in user's name or account, their organisation's name, or the time. */
export function stampOf(what: string, actor: AuthUser, orgName: string, now: Date): string {
  if (what === 'actor') return actor.userName;
  if (what === 'account') return actor.userAccount;
  if (what === 'organization') return orgName;
  return localDateTime(now, actor.timeZone);
}

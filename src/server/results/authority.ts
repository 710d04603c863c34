import type { Locale } from '../../shared/i18n/messages.js';
import { localDateTime } from '../../shared/time.js';
import type { Queryable } from '../kernel/db/database.js';
import type { Kernel } from '../kernel/context.js';
import type { AuthUser } from '../kernel/identity/actor.js';
import { RESULT_MESSAGES, refused } from './messages.js';
import { once } from '../kernel/db/perTransaction.js';
import { labTimeZone, labToday } from '../kernel/labConfig/timeZone.js';

export type Ability = 'canTest' | 'canReview' | 'canAudit';
const WORD = { canTest: RESULT_MESSAGES.test, canReview: RESULT_MESSAGES.review, canAudit: RESULT_MESSAGES.audit };

/**
 * Inspection authority (检验权限, pages 202xx): who may test, first-review and audit the items of which
 * group, until when. A step of a result is refused to a user without the ability for the item's group.
 */
export async function requireAuthority(
  kernel: Kernel,
  tx: Queryable,
  actor: AuthUser,
  group: number | null | undefined,
  ability: Ability,
  locale: Locale,
): Promise<void> {
  const today = labToday(kernel, actor);
  const grants = group
    ? await once(tx, `authority:${actor.orgId}:${actor.userAccount}:${group}`, () =>
        kernel.records.find(tx, 'inspectionAuthority', actor.orgId, {
          userAccount: [actor.userAccount],
          professionalGroup: [group],
        }),
      )
    : [];
  const valid = grants.some((g) => g.data[ability] === true && (!g.data.validUntil || g.data.validUntil >= today));
  if (valid) return;
  const name = group ? (await kernel.records.titles(tx, 'professionalGroup', actor.orgId, [group])).get(group) : '';
  refused(RESULT_MESSAGES.noAuthority, locale, {
    user: actor.userName,
    group: name ?? '',
    ability: WORD[ability][locale],
  });
}

/** The accounts that may test a group's items today: whom a critical value of the group is pushed to. */
export async function groupMembers(kernel: Kernel, tx: Queryable, orgId: number, group: number): Promise<string[]> {
  const today = localDateTime(kernel.now(), await labTimeZone(tx, orgId, kernel.config.timeZone)).slice(0, 10);
  const grants = await kernel.records.find(tx, 'inspectionAuthority', orgId, { professionalGroup: [group] });
  return grants
    .filter((g) => g.data.canTest === true && (!g.data.validUntil || g.data.validUntil >= today))
    .map((g) => String(g.data.userAccount));
}

import type { Queryable } from '../db/database.js';
import type { AuthUser } from '../identity/actor.js';
import type { RecordStore } from '../resources/store.js';

/** The professional groups a user works in, by id and name. */
export interface GroupScope {
  ids: number[];
  names: string[];
}

/**
 * Whose work a user's dashboard counts (issue 24): the groups their inspection authority (检验权限)
 * lets them test, review or audit today. An administrator, and anyone holding no authority (the front
 * desk), sees the whole lab: their work is not one group's.
 */
export async function groupScope(
  records: RecordStore,
  db: Queryable,
  actor: AuthUser,
  today: string,
): Promise<GroupScope | undefined> {
  if (actor.roles.includes('admin')) return undefined;
  const grants = await records.find(db, 'inspectionAuthority', actor.orgId, { userAccount: [actor.userAccount] });
  const ids = [
    ...new Set(
      grants
        .filter((g) => g.data.canTest === true || g.data.canReview === true || g.data.canAudit === true)
        .filter((g) => !g.data.validUntil || String(g.data.validUntil) >= today)
        .map((g) => Number(g.data.professionalGroup))
        .filter((id) => Number.isInteger(id) && id > 0),
    ),
  ].sort((a, b) => a - b);
  if (ids.length === 0) return undefined;
  const titles = await records.titles(db, 'professionalGroup', actor.orgId, ids);
  return { ids, names: ids.map((id) => titles.get(id) ?? String(id)) };
}

/** What a section says of whose work it counts: the groups' names, or nothing for the whole lab. */
export const scopeOf = (scope: GroupScope | undefined): { groups?: string[] } => (scope ? { groups: scope.names } : {});

/** The ids as a list link's filter value (any of them); none at all reads as an id no record has. */
export const anyOfIds = (ids: readonly number[]): string => (ids.length > 0 ? ids.join(',') : '0');

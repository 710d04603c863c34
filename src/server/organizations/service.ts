import { can } from '../../shared/access/can.js';
import { MOBILE_PHONE } from '../../shared/password/policy.js';
import type { AuthUser } from '../kernel/identity/actor.js';
import type { Database } from '../kernel/db/database.js';
import { isUniqueViolation } from '../kernel/db/errors.js';
import { badRequest, conflict, forbidden, notFound } from '../kernel/http/envelope.js';
import { appendLog } from '../kernel/audit/log.js';
import {
  getOrganization,
  insertOrganization,
  updateOrganization,
  type Organization,
  type OrganizationInput,
} from '../kernel/identity/organizations.js';

/**
 * The rules of the group's structure (spec 1, 7.3), shared by the spec calls and the organisation
 * screen: the base organisation's administrators add main labs and only-labs under it, a main lab's
 * administrators add sub labs under it; each change is logged with before and after.
 */
function checkPhone(phone: string | null | undefined) {
  if (phone && !MOBILE_PHONE.test(phone)) throw badRequest('user.phone.invalid');
}

/** A code another organisation holds is refused with the spec's message, not a database error. */
async function uniqueCode<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('organization.codeTaken');
    throw error;
  }
}

export async function createOrganization(
  db: Database,
  actor: AuthUser,
  body: OrganizationInput,
  ip?: string,
): Promise<Organization> {
  if ((body.labType as string) === 'base') throw badRequest('organization.oneBase');
  const parent = await getOrganization(db, body.parentId ?? -1);
  if (!parent) throw badRequest('organization.badParent');
  if (!can(actor, 'organization', 'create', { orgId: parent.id, parentOrgId: parent.parentId })) throw forbidden();
  // A sub lab hangs under a main lab; main labs and only-labs hang under the base organisation.
  const fits = body.labType === 'sub' ? parent.labType === 'main' : parent.labType === 'base';
  if (!fits) throw badRequest('organization.badPlace');
  checkPhone(body.phone);
  return uniqueCode(() =>
    db.transaction(async (tx) => {
      const created = await insertOrganization(tx, body);
      await appendLog(tx, actor, {
        resource: 'organization',
        recordId: created.id,
        action: 'create',
        after: created,
        ip,
      });
      return created;
    }),
  );
}

export async function changeOrganization(
  db: Database,
  actor: AuthUser,
  id: number,
  changes: Partial<OrganizationInput>,
  ip?: string,
): Promise<Organization | undefined> {
  const org = await getOrganization(db, id);
  if (!org) throw notFound();
  if (!can(actor, 'organization', 'update', { orgId: org.id, parentOrgId: org.parentId })) throw forbidden();
  checkPhone(changes.phone);
  return uniqueCode(() =>
    db.transaction(async (tx) => {
      const updated = await updateOrganization(tx, org.id, changes);
      await appendLog(tx, actor, {
        resource: 'organization',
        recordId: org.id,
        action: 'update',
        before: org,
        after: updated,
        ip,
      });
      return updated;
    }),
  );
}

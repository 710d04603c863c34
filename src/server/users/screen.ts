import type { Kernel } from '../kernel/context.js';
import { notFound } from '../kernel/http/envelope.js';
import { managedOrganizations } from '../kernel/identity/organizations.js';
import type { Call, TableAdapter, TableRecord, TableResource } from '../kernel/resources/tables.js';
import { getUser, listUsers, type PublicUser } from '../kernel/identity/accounts.js';
import { createAdministrator, unlockAccount, updateUser } from './service.js';

/**
 * Administrator maintenance (spec 2.2 group management, 10102; spec 7.1 createAdmin / updateAdmin /
 * getAdmin): the administrators of every organisation the caller manages, each created with the
 * organisation's admin role and a first password its owner must change. The user calls log each write.
 */
function adminRecord(user: PublicUser): TableRecord {
  return {
    id: user.id,
    version: user.version,
    organizationId: user.orgId,
    userAccount: user.userAccount,
    userName: user.userName,
    phone: user.phone || undefined,
    email: user.email || undefined,
    locked: user.locked,
    failedAttempts: user.failedAttempts,
    labels: { organizationId: user.orgName },
  };
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
export const ADMINISTRATOR_TABLE: TableResource = {
  resource: 'administrator',
  adapter(ctx: Kernel): TableAdapter {
    const { db } = ctx;
    const managedIds = async (orgId: number) => (await managedOrganizations(db, orgId)).map((o) => o.id);
    const inReach = async (call: Call, id: number) => {
      const user = await getUser(db, id);
      if (!user || !user.roles.includes('admin') || !(await managedIds(call.actor.orgId)).includes(user.orgId))
        return undefined;
      return adminRecord(user);
    };

    return {
      async list(call, q, page) {
        const managed = await managedIds(call.actor.orgId);
        const orgIds = q.organizationId ? managed.filter((id) => id === Number(q.organizationId)) : managed;
        const found = await listUsers(db, {
          orgIds,
          roleCode: 'admin',
          userAccount: q.userAccount?.trim(),
          userName: q.userName?.trim(),
          ...page,
        });
        return { records: found.records.map(adminRecord), total: found.total };
      },
      get: inReach,
      async create(call, data) {
        const id = await createAdministrator(
          db,
          call.actor,
          {
            orgId: Number(data.organizationId),
            userAccount: String(data.userAccount ?? ''),
            userName: String(data.userName ?? ''),
            password: String(data.password ?? ''),
            phone: text(data.phone),
            email: text(data.email),
            roleIds: [],
          },
          call.ip,
        );
        return (await inReach(call, id))!;
      },
      async update(call, current, data) {
        const password = text(data.password);
        await updateUser(
          db,
          call.actor,
          {
            id: current.id,
            version: typeof data.version === 'number' ? data.version : current.version,
            userName: text(data.userName) ?? undefined,
            phone: text(data.phone),
            email: text(data.email),
            ...(password && { password }),
          },
          'admin',
          ctx.now(),
          call.ip,
        );
        // Switching the lock off is the group's administrator unlocking the account (spec 7.1 unlockUser).
        if (current.locked === true && data.locked === false)
          await unlockAccount(db, call.actor, current.id, call.ip, 'admin');
        const updated = await inReach(call, current.id);
        if (!updated) throw notFound();
        return updated;
      },
    };
  },
};

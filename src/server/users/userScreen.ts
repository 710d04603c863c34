import { parseMenuIds } from '../../shared/menu/filter.js';
import type { Kernel } from '../kernel/context.js';
import { rolesOfOrg } from '../kernel/identity/roles.js';
import { getUser, listUsers, type PublicUser } from '../kernel/identity/accounts.js';
import type { Call, TableAdapter, TableRecord, TableResource } from '../kernel/resources/tables.js';
import { addUser, removeUser, unlockAccount, updateUser } from './service.js';

/**
 * The user screen of system maintenance: the laboratory's accounts, their roles, the menus switched off
 * for one person, and the lock that five wrong passwords set. The writes are those of the spec 7.1 user
 * calls (POST / PUT / DELETE /api/user, unlockUser), so their rules and their operation-log entries stay in one place.
 */
function userRecord(user: PublicUser, roleNames: Map<number, string>): TableRecord {
  return {
    id: user.id,
    version: user.version,
    userAccount: user.userAccount,
    userName: user.userName,
    phone: user.phone || undefined,
    email: user.email || undefined,
    roleIds: user.roleIds,
    locked: user.locked,
    failedAttempts: user.failedAttempts,
    disabledMenuIds: parseMenuIds(user.disabledMenuIds),
    labels: { roleIds: user.roleIds.map((id) => roleNames.get(id) ?? String(id)) },
  };
}

const menuText = (value: unknown) => (Array.isArray(value) ? value.map(Number).join(',') : '');

export const USER_TABLE: TableResource = {
  resource: 'user',
  adapter(ctx: Kernel): TableAdapter {
    const { db } = ctx;
    const roleNames = async (orgId: number) => new Map((await rolesOfOrg(db, orgId)).map((r) => [r.id, r.name]));
    const inOrg = async (call: Call, id: number) => {
      const user = await getUser(db, id);
      return user && user.orgId === call.actor.orgId ? userRecord(user, await roleNames(user.orgId)) : undefined;
    };
    return {
      async list(c, q, page) {
        const found = await listUsers(db, {
          orgIds: [c.actor.orgId],
          userAccount: q.userAccount?.trim(),
          userName: q.userName?.trim(),
          ...page,
        });
        const names = await roleNames(c.actor.orgId);
        return { records: found.records.map((u) => userRecord(u, names)), total: found.total };
      },
      get: inOrg,
      async create(c, data) {
        const created = await addUser(
          db,
          c.actor,
          {
            userAccount: String(data.userAccount).trim(),
            userName: String(data.userName),
            password: typeof data.password === 'string' ? data.password : '',
            phone: typeof data.phone === 'string' ? data.phone : null,
            email: typeof data.email === 'string' ? data.email : null,
            roleIds: Array.isArray(data.roleIds) ? data.roleIds.map(Number) : [],
            disabledMenuIds: menuText(data.disabledMenuIds),
            orgId: c.actor.orgId,
          },
          c.ip,
        );
        return (await inOrg(c, created.id))!;
      },
      async update(c, current, data) {
        const password = typeof data.password === 'string' && data.password !== '' ? data.password : undefined;
        const body = {
          id: current.id,
          version: typeof data.version === 'number' ? data.version : current.version,
          userName: typeof data.userName === 'string' ? data.userName : undefined,
          phone: typeof data.phone === 'string' ? data.phone : null,
          email: typeof data.email === 'string' ? data.email : null,
          roleIds: Array.isArray(data.roleIds) ? data.roleIds.map(Number) : [],
          disabledMenuIds: menuText(data.disabledMenuIds),
          ...(password && { password }),
        };
        await updateUser(db, c.actor, body, 'user', ctx.now(), c.ip);
        // Switching the lock off is the administrator unlocking the account (spec 7.1 unlockUser).
        if (current.locked === true && data.locked === false) await unlockAccount(db, c.actor, current.id, c.ip);
        return (await inOrg(c, current.id))!;
      },
      async remove(c, current) {
        await removeUser(db, c.actor, current.id, c.ip);
      },
    };
  },
};

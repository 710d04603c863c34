import type { FastifyInstance } from 'fastify';
import { parseMenuIds } from '../../shared/menu/filter.js';
import type { AppContext } from '../kernel/context.js';
import { callAs } from '../kernel/http/forward.js';
import { rolesOfOrg } from '../kernel/identity/roles.js';
import { getUser, listUsers, type PublicUser } from '../kernel/identity/accounts.js';
import { registerTableResource, type Call, type TableRecord } from '../kernel/resources/tables.js';

/**
 * The user screen of system maintenance: the laboratory's accounts, their roles, the menus switched off
 * for one person, and the lock that five wrong passwords set. The writes are the spec 7.1 user calls
 * (POST / PUT / DELETE /api/user, unlockUser), so their rules and their operation-log entries stay in one place.
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

/** A refusal from the user calls, passed on to the caller as it was answered. */
class Answered extends Error {
  constructor(
    readonly status: number,
    readonly body: { resultMessage?: string },
  ) {
    super(body.resultMessage ?? 'refused');
  }
}

export async function userScreenRoutes(app: FastifyInstance, ctx: AppContext) {
  const { db } = ctx;
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof Answered) return reply.code(error.status).send(error.body);
    throw error;
  });

  const roleNames = async (orgId: number) => new Map((await rolesOfOrg(db, orgId)).map((r) => [r.id, r.name]));
  const inOrg = async (call: Call, id: number) => {
    const user = await getUser(db, id);
    return user && user.orgId === call.actor.orgId ? userRecord(user, await roleNames(user.orgId)) : undefined;
  };
  /** Makes a user call for the screen; a refusal becomes this request's answer. */
  const call = async (c: Call, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => {
    const answer = await callAs(c.request, method, url, payload);
    const body = answer.body as { resultObject?: { id?: number }; resultMessage?: string };
    if (answer.status !== 200) throw new Answered(answer.status, body);
    return body.resultObject;
  };
  const menuText = (value: unknown) => (Array.isArray(value) ? value.map(Number).join(',') : '');

  registerTableResource(app, ctx, 'user', {
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
      const created = await call(c, 'POST', '/api/user', {
        userAccount: data.userAccount,
        userName: data.userName,
        password: data.password ?? '',
        phone: data.phone ?? null,
        email: data.email ?? null,
        roleIds: data.roleIds ?? [],
        disabledMenuIds: menuText(data.disabledMenuIds),
        orgId: c.actor.orgId,
      });
      const id = Number(created?.id);
      return (await inOrg(c, id))!;
    },
    async update(c, current, data) {
      await call(c, 'PUT', '/api/user', {
        id: current.id,
        version: typeof data.version === 'number' ? data.version : current.version,
        userName: data.userName,
        phone: data.phone ?? null,
        email: data.email ?? null,
        roleIds: data.roleIds ?? [],
        disabledMenuIds: menuText(data.disabledMenuIds),
        ...(typeof data.password === 'string' && data.password !== '' && { password: data.password }),
      });
      // Switching the lock off is the administrator unlocking the account (spec 7.1 unlockUser).
      if (current.locked === true && data.locked === false) {
        await call(c, 'GET', `/api/user/unlockUser?id=${current.id}`);
      }
      return (await inOrg(c, current.id))!;
    },
    async remove(c, current) {
      await call(c, 'DELETE', `/api/user/${current.id}`);
    },
  });
}

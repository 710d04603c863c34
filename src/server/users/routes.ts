import type { FastifyInstance } from 'fastify';
import { can } from '../../shared/access/can.js';
import type { Kernel } from '../kernel/context.js';
import { forbidden, notFound, ok, okMessage } from '../kernel/http/envelope.js';
import { actorOf, intParam } from '../kernel/http/request.js';
import { getOrganization, labTypeFlags, managedOrganizations } from '../kernel/identity/organizations.js';
import { permittedMenuIds, rolesOfOrg, rolesOfUser } from '../kernel/identity/roles.js';
import { getUser, listUsers } from '../kernel/identity/accounts.js';
import {
  addUser,
  createAdministrator,
  removeUser,
  unlockAccount,
  requireUserAccess,
  updateUser,
  type CreateUserInput,
  type UserBody,
} from './service.js';

const userFields = {
  userAccount: { type: 'string', minLength: 2, maxLength: 32, pattern: '^\\s*[A-Za-z0-9_.@-]+\\s*$' },
  userName: { type: 'string', minLength: 1, maxLength: 50 },
  phone: { type: ['string', 'null'], maxLength: 20 },
  email: {
    anyOf: [{ type: 'string', format: 'email', maxLength: 100 }, { type: 'string', maxLength: 0 }, { type: 'null' }],
  },
  orgId: { type: 'integer', minimum: 0 },
  password: { type: 'string', maxLength: 64 },
  roleIds: { type: 'array', items: { type: 'integer' }, maxItems: 50 },
  disabledMenuIds: { type: 'string', maxLength: 4000, pattern: '^[0-9,\\s]*$' },
  avatar: { type: ['string', 'null'], maxLength: 500 },
  introduction: { type: ['string', 'null'], maxLength: 500 },
  version: { type: 'integer' },
} as const;

const createSchema = {
  body: { type: 'object', properties: userFields, required: ['userAccount', 'userName', 'password'] },
};
const updateSchema = {
  body: { type: 'object', properties: { id: { type: 'integer' }, ...userFields }, required: ['id'] },
};

/** User and administrator calls of spec 7.1, and the user info of the page-entry flow (spec 4). */
export async function userRoutes(app: FastifyInstance, ctx: Kernel) {
  const { db } = ctx;

  // Asked by every page the browser opens: kept until lab data (the account, its lock) is next written.
  app.get('/api/user/me', async (request) => {
    const id = actorOf(request).id;
    const user = await ctx.reads.read(`me:${id}`, () => getUser(db, id));
    if (!user) throw notFound();
    return ok(user);
  });

  app.get('/api/user/login', async (request) => {
    const actor = actorOf(request);
    const [user, organization, roleList] = await Promise.all([
      getUser(db, actor.id),
      getOrganization(db, actor.orgId),
      rolesOfUser(db, actor.id),
    ]);
    if (!user || !organization) throw notFound();
    return ok({
      user,
      organization: { ...organization, ...labTypeFlags(organization) },
      roleList,
      permissionList: permittedMenuIds(roleList, user.disabledMenuIds),
      disabledMenu: user.disabledMenuIds,
      tbBaseInputHelperDict: [],
      usePlace: organization.usePlace,
      definitionBarcodeRule: organization.definitionBarcodeRule,
      passwordFlag: user.passwordFlag,
    });
  });

  app.get('/api/user/getOrgId', async (request) => ok(actorOf(request).orgId));

  app.get('/api/user/getOrg', async (request) => {
    const org = await getOrganization(db, actorOf(request).orgId);
    if (!org) throw notFound();
    return ok(org);
  });

  app.get<{ Querystring: { orgId?: string } }>('/api/user/getRoleByOrgId', async (request) => {
    const actor = actorOf(request);
    const orgId = request.query.orgId ? Number(request.query.orgId) : actor.orgId;
    const org = await getOrganization(db, orgId);
    if (!org) throw notFound();
    if (!can(actor, 'role', 'read', { orgId: org.id, parentOrgId: org.parentId })) throw forbidden();
    return ok(await rolesOfOrg(db, org.id));
  });

  app.get<{ Querystring: { userAccount?: string; userName?: string; orgId?: string; page?: string; size?: string } }>(
    '/api/user/getUser',
    async (request) => {
      const actor = actorOf(request);
      if (!can(actor, 'user', 'read')) throw forbidden();
      const q = request.query;
      const managed = (await managedOrganizations(db, actor.orgId)).map((o) => o.id);
      const orgIds = q.orgId ? managed.filter((id) => id === Number(q.orgId)) : managed;
      if (q.orgId && orgIds.length === 0) throw forbidden();
      return ok(
        await listUsers(db, {
          orgIds,
          userAccount: q.userAccount?.trim(),
          userName: q.userName?.trim(),
          page: intParam(q.page, 1),
          size: intParam(q.size, 50, 500),
        }),
      );
    },
  );

  app.get<{ Querystring: { id?: string; userAccount?: string } }>('/api/user/unlockUser', async (request) => {
    const id = Number(request.query.id);
    const user = await unlockAccount(db, actorOf(request), Number.isInteger(id) ? id : 0, request.ip);
    return okMessage(request, 'user.unlocked', user);
  });

  app.get<{ Querystring: { orgId?: string } }>('/api/user/getAdmin', async (request) => {
    const actor = actorOf(request);
    const orgId = request.query.orgId ? Number(request.query.orgId) : actor.orgId;
    await requireUserAccess(db, actor, 'admin', 'read', orgId);
    return ok((await listUsers(db, { orgIds: [orgId], roleCode: 'admin', page: 1, size: 500 })).records);
  });

  app.post<{ Body: UserBody }>('/api/user/createAdmin', { schema: createSchema }, async (request) => {
    const actor = actorOf(request);
    const id = await createAdministrator(
      db,
      actor,
      { ...(request.body as CreateUserInput), orgId: request.body.orgId ?? actor.orgId },
      request.ip,
    );
    return ok(await getUser(db, id));
  });

  app.post<{ Body: UserBody }>('/api/user/updateAdmin', { schema: updateSchema }, async (request) => {
    return ok(await updateUser(db, actorOf(request), request.body, 'admin', ctx.now(), request.ip));
  });

  app.get<{ Params: { id: string } }>('/api/user/:id', async (request) => {
    const user = await getUser(db, Number(request.params.id) || 0);
    if (!user) throw notFound();
    await requireUserAccess(db, actorOf(request), 'user', 'read', user.orgId);
    return ok(user);
  });

  app.post<{ Body: UserBody }>('/api/user', { schema: createSchema }, async (request) => {
    const actor = actorOf(request);
    return ok(
      await addUser(
        db,
        actor,
        { ...(request.body as CreateUserInput), orgId: request.body.orgId ?? actor.orgId },
        request.ip,
      ),
    );
  });

  app.put<{ Body: UserBody }>('/api/user', { schema: updateSchema }, async (request) => {
    return ok(await updateUser(db, actorOf(request), request.body, 'user', ctx.now(), request.ip));
  });

  app.delete<{ Params: { id: string } }>('/api/user/:id', async (request) =>
    ok(await removeUser(db, actorOf(request), Number(request.params.id) || 0, request.ip)),
  );
}

import { can, type Action, type Target } from '../../shared/access/can.js';
import { checkNewPassword, MOBILE_PHONE } from '../../shared/password/policy.js';
import type { Database, Queryable } from '../kernel/db/database.js';
import { isUniqueViolation } from '../kernel/db/errors.js';
import type { AuthUser } from '../kernel/identity/actor.js';
import { hashPassword } from '../kernel/identity/passwords.js';
import { badRequest, conflict, forbidden, notFound } from '../kernel/http/envelope.js';
import { getOrganization } from '../kernel/identity/organizations.js';
import { rolesOfOrg } from '../kernel/identity/roles.js';
import { revokeUserTokens } from '../kernel/identity/sessions.js';
import { ensureAdminRole } from '../kernel/identity/adminRole.js';
import { appendLog } from '../kernel/audit/log.js';
import {
  deleteUser,
  getUser,
  insertUser,
  unlockUser,
  setPassword,
  setUserRoles,
  updateUserFields,
  type NewUser,
  type PublicUser,
  type UserChanges,
} from '../kernel/identity/accounts.js';

/** The organisation of a row, with its parent, as `can` needs it; 404 when the org does not exist. */
export async function orgTarget(db: Queryable, orgId: number): Promise<Target> {
  const org = await getOrganization(db, orgId);
  if (!org) throw notFound();
  return { orgId: org.id, parentOrgId: org.parentId };
}

export async function requireUserAccess(
  db: Queryable,
  actor: AuthUser,
  resource: 'user' | 'admin',
  action: Action,
  orgId: number,
): Promise<void> {
  if (!can(actor, resource, action, await orgTarget(db, orgId))) throw forbidden();
}

export function checkContact(input: { phone?: string | null }): void {
  if (input.phone && !MOBILE_PHONE.test(input.phone)) throw badRequest('user.phone.invalid');
}

/** Roles given to a user must be roles of the user's own organisation. */
export async function checkRoleIds(db: Queryable, orgId: number, roleIds: number[]): Promise<void> {
  const known = new Set((await rolesOfOrg(db, orgId)).map((r) => r.id));
  if (roleIds.some((id) => !known.has(id))) throw badRequest('common.invalid');
}

export interface CreateUserInput {
  userAccount: string;
  userName: string;
  phone?: string | null;
  email?: string | null;
  orgId: number;
  password: string;
  roleIds: number[];
  disabledMenuIds?: string;
}

/**
 * An account made by an administrator starts with passwordFlag 1: its owner must choose their own
 * password at first sign-in (spec 2.5).
 */
export async function createUser(tx: Queryable, input: CreateUserInput): Promise<number> {
  checkContact(input);
  const weak = checkNewPassword(input.password);
  if (weak) throw badRequest(weak);
  await checkRoleIds(tx, input.orgId, input.roleIds);
  const user: NewUser = {
    userAccount: input.userAccount.trim(),
    userName: input.userName.trim(),
    phone: input.phone ?? null,
    email: input.email ?? null,
    orgId: input.orgId,
    passwordHash: await hashPassword(input.password),
    passwordFlag: 1,
    disabledMenuIds: input.disabledMenuIds ?? '',
  };
  try {
    const id = await insertUser(tx, user);
    await setUserRoles(tx, id, input.roleIds);
    return id;
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict('user.accountTaken');
    throw error;
  }
}

/**
 * Every write to an account goes to the operation log (who, when, from where, before and after), in the
 * write's own transaction; what is logged of an account never holds its password.
 */
export async function logUser(
  tx: Queryable,
  actor: AuthUser,
  action: string,
  id: number,
  before?: PublicUser,
  ip?: string,
): Promise<void> {
  const after = action === 'delete' ? undefined : await getUser(tx, id);
  await appendLog(tx, actor, { resource: 'user', recordId: id, action, before, after, ip });
}

/** An administrator of an organisation the actor manages (spec 7.1 createAdmin): an account with the org's admin role. */
export async function createAdministrator(
  db: Database,
  actor: AuthUser,
  input: CreateUserInput,
  ip?: string,
): Promise<number> {
  await requireUserAccess(db, actor, 'admin', 'create', input.orgId);
  return db.transaction(async (tx) => {
    const role = await ensureAdminRole(tx, input.orgId);
    const id = await createUser(tx, { ...input, roleIds: [role.id] });
    await logUser(tx, actor, 'create', id, undefined, ip);
    return id;
  });
}

export type UserBody = Partial<CreateUserInput> & UserChanges & { id?: number; version?: number };

/**
 * Edits a user's details, roles and, when a password is given, resets it: the owner must then
 * choose a new one (passwordFlag 1) and every session of the account ends.
 */
export async function updateUser(
  db: Database,
  actor: AuthUser,
  body: UserBody,
  resource: 'user' | 'admin',
  now: Date,
  ip?: string,
): Promise<PublicUser | undefined> {
  const user = await getUser(db, body.id ?? 0);
  if (!user) throw notFound();
  await requireUserAccess(db, actor, resource, 'update', user.orgId);
  checkContact(body);
  if (body.password !== undefined) {
    const weak = checkNewPassword(body.password);
    if (weak) throw badRequest(weak);
  }
  const passwordHash = body.password !== undefined ? await hashPassword(body.password) : undefined;
  await db.transaction(async (tx) => {
    const changes: UserChanges = {
      userName: body.userName?.trim(),
      phone: body.phone,
      email: body.email,
      disabledMenuIds: body.disabledMenuIds,
      avatar: body.avatar,
      introduction: body.introduction,
    };
    if (!(await updateUserFields(tx, user.id, changes, body.version))) throw conflict();
    if (body.roleIds && resource === 'user') {
      await checkRoleIds(tx, user.orgId, body.roleIds);
      await setUserRoles(tx, user.id, body.roleIds);
    }
    if (passwordHash) {
      await setPassword(tx, user.id, passwordHash, 1);
      await revokeUserTokens(tx, user.id, now);
    }
    await logUser(tx, actor, 'update', user.id, user, ip);
  });
  return getUser(db, user.id);
}

/** Spec 7.1 POST /api/user: a new account of an organisation the caller manages, logged; answers it. */
export async function addUser(db: Database, actor: AuthUser, input: CreateUserInput, ip: string): Promise<PublicUser> {
  await requireUserAccess(db, actor, 'user', 'create', input.orgId);
  const id = await db.transaction(async (tx) => {
    const created = await createUser(tx, { ...input, roleIds: input.roleIds ?? [] });
    await logUser(tx, actor, 'create', created, undefined, ip);
    return created;
  });
  return (await getUser(db, id))!;
}

/** Spec 7.1 DELETE /api/user/{id}: never one's own account; answers the id. */
export async function removeUser(db: Database, actor: AuthUser, id: number, ip: string): Promise<number> {
  const user = await getUser(db, id);
  if (!user) throw notFound();
  await requireUserAccess(db, actor, 'user', 'delete', user.orgId);
  if (user.id === actor.id) throw badRequest('user.cannotDeleteSelf');
  await db.transaction(async (tx) => {
    await deleteUser(tx, user.id);
    await logUser(tx, actor, 'delete', user.id, user, ip);
  });
  return user.id;
}

/** Spec 7.1 unlockUser: an administrator lifts the lock five wrong passwords set; answers the account. */
export async function unlockAccount(
  db: Database,
  actor: AuthUser,
  id: number,
  ip: string,
  resource: 'user' | 'admin' = 'user',
): Promise<PublicUser> {
  const user = await getUser(db, id);
  if (!user) throw notFound();
  await requireUserAccess(db, actor, resource, 'update', user.orgId);
  await db.transaction(async (tx) => {
    await unlockUser(tx, user.id);
    await logUser(tx, actor, 'unlock', user.id, user, ip);
  });
  return (await getUser(db, user.id))!;
}

import type { Queryable } from '../db/database.js';
import { one } from '../db/database.js';

/** A user as the API shows it: never the password hash. */
export interface PublicUser {
  id: number;
  userAccount: string;
  userName: string;
  phone: string | null;
  email: string | null;
  orgId: number;
  orgName: string;
  passwordFlag: number;
  locked: boolean;
  failedAttempts: number;
  disabledMenuIds: string;
  avatar: string | null;
  introduction: string | null;
  version: number;
  roleIds: number[];
  roles: string[];
  createdAt: Date;
  updatedAt: Date;
}

const USER_COLUMNS = `u.id, u.user_account as "userAccount", u.user_name as "userName", u.phone, u.email,
  u.org_id as "orgId", o.name as "orgName", u.password_flag as "passwordFlag",
  coalesce(g.locked_until > now(), false) as locked, coalesce(g.failures, 0) as "failedAttempts", u.disabled_menu_ids as "disabledMenuIds", u.avatar, u.introduction,
  u.version, u.created_at as "createdAt", u.updated_at as "updatedAt",
  array(select ur.role_id from user_role ur where ur.user_id = u.id order by ur.role_id) as "roleIds",
  array(select r.code from user_role ur join role r on r.id = ur.role_id where ur.user_id = u.id order by r.id) as roles`;

// The lock of an account is its name's sign-in guard (lockout.ts).
const FROM =
  'from app_user u join organization o on o.id = u.org_id left join login_guard g on g.account = u.user_account';

export function getUser(db: Queryable, id: number): Promise<PublicUser | undefined> {
  return one<PublicUser>(db, `select ${USER_COLUMNS} ${FROM} where u.id = $1`, [id]);
}

export interface UserFilter {
  orgIds: number[];
  userAccount?: string;
  userName?: string;
  roleCode?: string;
  page: number;
  size: number;
}

export async function listUsers(db: Queryable, f: UserFilter): Promise<{ records: PublicUser[]; total: number }> {
  const where = [
    'u.org_id = any($1::int[])',
    `($2::text is null or u.user_account ilike '%' || $2 || '%')`,
    `($3::text is null or u.user_name ilike '%' || $3 || '%')`,
    `($4::text is null or exists (select 1 from user_role ur join role r on r.id = ur.role_id where ur.user_id = u.id and r.code = $4))`,
  ].join(' and ');
  const params = [f.orgIds, f.userAccount || null, f.userName || null, f.roleCode || null];
  const total = await one<{ n: number }>(db, `select count(*)::int as n ${FROM} where ${where}`, params);
  const records = await db.query<PublicUser>(
    `select ${USER_COLUMNS} ${FROM} where ${where} order by u.org_id, u.id limit $5 offset $6`,
    [...params, f.size, (f.page - 1) * f.size],
  );
  return { records, total: total?.n ?? 0 };
}

export interface LoginRow {
  id: number;
  userAccount: string;
  orgId: number;
  passwordHash: string;
}

export function findForLogin(db: Queryable, userAccount: string): Promise<LoginRow | undefined> {
  return one<LoginRow>(
    db,
    `select id, user_account as "userAccount", org_id as "orgId", password_hash as "passwordHash"
       from app_user where user_account = $1`,
    [userAccount],
  );
}

/** An administrator's unlock: the account's name starts afresh (lockout.ts). */
export async function unlockUser(db: Queryable, id: number): Promise<void> {
  await db.query('delete from login_guard where account = (select user_account from app_user where id = $1)', [id]);
  await db.query('update app_user set updated_at = now() where id = $1', [id]);
}

/** A new password (the user's own, or an administrator's reset) also lifts a lock on the account. */
export async function setPassword(db: Queryable, id: number, hash: string, passwordFlag: 0 | 1): Promise<void> {
  await db.query(
    `update app_user set password_hash = $2, password_flag = $3, version = version + 1, updated_at = now() where id = $1`,
    [id, hash, passwordFlag],
  );
  await unlockUser(db, id);
}

/** The same password hashed anew (passwords.ts isOutdated): not a change of the account, so its version stays. */
export async function rehashPassword(db: Queryable, id: number, hash: string): Promise<void> {
  await db.query('update app_user set password_hash = $2 where id = $1', [id, hash]);
}

export function passwordHashOf(db: Queryable, id: number): Promise<{ passwordHash: string } | undefined> {
  return one(db, 'select password_hash as "passwordHash" from app_user where id = $1', [id]);
}

export interface NewUser {
  userAccount: string;
  userName: string;
  phone?: string | null;
  email?: string | null;
  orgId: number;
  passwordHash: string;
  passwordFlag: 0 | 1;
  disabledMenuIds?: string;
}

export async function insertUser(db: Queryable, u: NewUser): Promise<number> {
  const row = await one<{ id: number }>(
    db,
    `insert into app_user (user_account, user_name, phone, email, org_id, password_hash, password_flag, disabled_menu_ids)
     values ($1, $2, $3, $4, $5, $6, $7, $8) returning id`,
    [
      u.userAccount,
      u.userName,
      u.phone ?? null,
      u.email ?? null,
      u.orgId,
      u.passwordHash,
      u.passwordFlag,
      u.disabledMenuIds ?? '',
    ],
  );
  return row!.id;
}

export interface UserChanges {
  userName?: string;
  phone?: string | null;
  email?: string | null;
  disabledMenuIds?: string;
  avatar?: string | null;
  introduction?: string | null;
}

const COLUMN: Record<keyof UserChanges, string> = {
  userName: 'user_name',
  phone: 'phone',
  email: 'email',
  disabledMenuIds: 'disabled_menu_ids',
  avatar: 'avatar',
  introduction: 'introduction',
};

/** Applies the given fields; with a version, only if nobody changed the row since (optimistic lock). */
export async function updateUserFields(
  db: Queryable,
  id: number,
  changes: UserChanges,
  version?: number,
): Promise<boolean> {
  const params: unknown[] = [id, version ?? null];
  const sets = ['version = version + 1', 'updated_at = now()'];
  for (const key of Object.keys(COLUMN) as (keyof UserChanges)[]) {
    if (changes[key] === undefined) continue;
    params.push(changes[key]);
    sets.push(`${COLUMN[key]} = $${params.length}`);
  }
  const rows = await db.query(
    `update app_user set ${sets.join(', ')} where id = $1 and ($2::int is null or version = $2) returning id`,
    params,
  );
  return rows.length === 1;
}

export async function setUserRoles(db: Queryable, userId: number, roleIds: number[]): Promise<void> {
  await db.query('delete from user_role where user_id = $1', [userId]);
  if (roleIds.length > 0) {
    await db.query('insert into user_role (user_id, role_id) select $1, unnest($2::int[])', [userId, roleIds]);
  }
}

export async function deleteUser(db: Queryable, id: number): Promise<boolean> {
  return (await db.query('delete from app_user where id = $1 returning id', [id])).length === 1;
}

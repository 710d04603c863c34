import type { CapabilitySeed } from '../kernel/capability.js';
import type { Queryable } from '../kernel/db/database.js';
import { one } from '../kernel/db/database.js';
import { hashPassword } from '../kernel/identity/passwords.js';

/** Demo users, one or two per organisation, signing in with LIMS_DEMO_PASSWORD (README). */
export const DEMO_USERS: { account: string; name: string; orgId: number; role: 'admin' | 'editor'; phone: string }[] = [
  { account: 'admin', name: '系统管理员', orgId: 1, role: 'admin', phone: '13800000001' },
  { account: 'editor', name: '王检验', orgId: 1, role: 'editor', phone: '13800000002' },
  { account: 'baseadmin', name: '集团管理员', orgId: 0, role: 'admin', phone: '13800000000' },
  { account: 'lab2admin', name: '杭州分实验室管理员', orgId: 2, role: 'admin', phone: '13800000003' },
  { account: 'lab3admin', name: '宁波分实验室管理员', orgId: 3, role: 'admin', phone: '13800000004' },
  { account: 'onlyadmin', name: '明安病理管理员', orgId: 4, role: 'admin', phone: '13800000005' },
];

async function seedUsers(tx: Queryable, password: string) {
  let hash: string | undefined;
  for (const u of DEMO_USERS) {
    if (await one(tx, 'select 1 from app_user where user_account = $1', [u.account])) continue;
    hash ??= await hashPassword(password);
    await tx.query(
      `with created as (
         insert into app_user (user_account, user_name, phone, org_id, password_hash, password_flag)
         values ($1, $2, $3, $4, $5, 0) returning id)
       insert into user_role (user_id, role_id)
       select created.id, role.id from created, role where role.org_id = $4 and role.code = $6`,
      [u.account, u.name, u.phone, u.orgId, hash, u.role],
    );
  }
}

export const userSeed: CapabilitySeed = {
  phase: 'identity',
  demoData: DEMO_USERS,
  demo: (tx, { demoPassword }) => seedUsers(tx, demoPassword),
};

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Database, Queryable } from '../kernel/db/database.js';
import { one } from '../kernel/db/database.js';
import { hashPassword } from '../kernel/identity/passwords.js';
import { menuIdsFor } from '../menus/seed.js';
import type { MenuNode } from '../../shared/menu/types.js';
import type { LabType } from '../kernel/identity/organizations.js';
import type { ScreenSchema } from '../../shared/screens/fields.js';
import { seedDemoRecords } from '../kernel/resources/demoRecords.js';
import { seedDemoDictionaries } from '../dictionaries/demo.js';
import { seedDemoModels } from '../workflow/models/demoModels.js';

/**
 * First-start demo data (README): the base organisation, a main lab with two sub labs, and an only-lab;
 * an admin and an editor role per organisation; demo users signing in with LIMS_DEMO_PASSWORD.
 * Every insert skips what is already there, so running it again changes nothing; and a start whose demo
 * files and code are those of the last seeding does not run it at all, so deleted demo rows stay deleted.
 */
const ORGS: { id: number; name: string; code: string; parentId: number | null; labType: LabType; usePlace: boolean }[] =
  [
    { id: 0, name: '华康医学检验集团（基础机构）', code: 'HK-BASE', parentId: null, labType: 'base', usePlace: false },
    { id: 1, name: '华康医学检验中心实验室', code: 'HK-MAIN', parentId: 0, labType: 'main', usePlace: true },
    { id: 2, name: '华康杭州分实验室', code: 'HK-HZ', parentId: 1, labType: 'sub', usePlace: true },
    { id: 3, name: '华康宁波分实验室', code: 'HK-NB', parentId: 1, labType: 'sub', usePlace: false },
    { id: 4, name: '明安病理诊断中心', code: 'MA-PATH', parentId: 0, labType: 'only', usePlace: false },
  ];

/** Every laboratory: demo rows go to each unless their file names other organisations. */
const LAB_ORG_IDS = ORGS.filter((o) => o.labType !== 'base').map((o) => o.id);

export const DEMO_USERS: { account: string; name: string; orgId: number; role: 'admin' | 'editor'; phone: string }[] = [
  { account: 'admin', name: '系统管理员', orgId: 1, role: 'admin', phone: '13800000001' },
  { account: 'editor', name: '王检验', orgId: 1, role: 'editor', phone: '13800000002' },
  { account: 'baseadmin', name: '集团管理员', orgId: 0, role: 'admin', phone: '13800000000' },
  { account: 'lab2admin', name: '杭州分实验室管理员', orgId: 2, role: 'admin', phone: '13800000003' },
  { account: 'lab3admin', name: '宁波分实验室管理员', orgId: 3, role: 'admin', phone: '13800000004' },
  { account: 'onlyadmin', name: '明安病理管理员', orgId: 4, role: 'admin', phone: '13800000005' },
];

async function seedOrganizations(tx: Queryable) {
  for (const o of ORGS) {
    await tx.query(
      `insert into organization (id, name, code, parent_id, lab_type, use_place) values ($1, $2, $3, $4, $5, $6)
       on conflict (id) do nothing`,
      [o.id, o.name, o.code, o.parentId, o.labType, o.usePlace],
    );
  }
}

async function seedRoles(tx: Queryable, adminIds: number[], editorIds: number[]) {
  for (const o of ORGS) {
    await tx.query(
      `insert into role (org_id, name, code, menu_ids, description) values
         ($1, '管理员', 'admin', $2, '实验室管理员，拥有全部菜单'),
         ($1, '检验员', 'editor', $3, '检验与录入人员')
       on conflict (org_id, name) do nothing`,
      [o.id, adminIds.join(','), editorIds.join(',')],
    );
  }
}

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

/** Screens and their demo rows (schemas/demo), seeded after the organisations and users they belong to. */
export interface DemoScreens {
  schemaDir: string;
  screens: ScreenSchema[];
}

/** Raise when the demo data written in code (organisations, users, dictionaries, models) changes. */
const DEMO_CODE_VERSION = 1;
/** Several server processes may start together on one PostgreSQL: one seeds, the others wait and skip. */
const SEED_LOCK = 7_331_002;

/** What the demo seeding depends on: the code's own data and the demo files, each named with its content. */
function demoFingerprint(demo?: DemoScreens): string {
  const hash = createHash('sha256').update(JSON.stringify({ DEMO_CODE_VERSION, ORGS, DEMO_USERS }));
  const dir = demo ? path.join(demo.schemaDir, 'demo') : undefined;
  if (dir && existsSync(dir)) {
    for (const name of readdirSync(dir).sort()) hash.update(name).update(readFileSync(path.join(dir, name)));
  }
  return hash.digest('hex');
}

export async function seedDemo(db: Database, routes: MenuNode[], password: string, demo?: DemoScreens): Promise<void> {
  const fingerprint = demoFingerprint(demo);
  await db.transaction(async (tx) => {
    await tx.query('select pg_advisory_xact_lock($1)', [SEED_LOCK]);
    if (await one(tx, "select 1 from demo_seed where name = 'demo' and fingerprint = $1", [fingerprint])) return;
    await seedOrganizations(tx);
    await seedRoles(tx, menuIdsFor(routes, 'admin'), menuIdsFor(routes, 'editor'));
    await seedUsers(tx, password);
    if (demo) await seedDemoRecords(tx, demo.schemaDir, demo.screens, LAB_ORG_IDS);
    await seedDemoDictionaries(
      tx,
      ORGS.map((o) => o.id),
    );
    await seedDemoModels(tx);
    await tx.query(
      `insert into demo_seed (name, fingerprint) values ('demo', $1)
       on conflict (name) do update set fingerprint = excluded.fingerprint, seeded_at = now()`,
      [fingerprint],
    );
  });
}

import type { CapabilitySeed } from '../kernel/capability.js';
import type { Queryable } from '../kernel/db/database.js';
import type { LabType } from '../kernel/identity/organizations.js';

/**
 * The demo organisations (README): the base organisation, a main lab with two sub labs, and an only-lab.
 * Rows already there are left alone, so seeding again changes nothing.
 */
export const DEMO_ORGS: {
  id: number;
  name: string;
  code: string;
  parentId: number | null;
  labType: LabType;
  usePlace: boolean;
}[] = [
  { id: 0, name: '华康医学检验集团（基础机构）', code: 'HK-BASE', parentId: null, labType: 'base', usePlace: false },
  { id: 1, name: '华康医学检验中心实验室', code: 'HK-MAIN', parentId: 0, labType: 'main', usePlace: true },
  { id: 2, name: '华康杭州分实验室', code: 'HK-HZ', parentId: 1, labType: 'sub', usePlace: true },
  { id: 3, name: '华康宁波分实验室', code: 'HK-NB', parentId: 1, labType: 'sub', usePlace: false },
  { id: 4, name: '明安病理诊断中心', code: 'MA-PATH', parentId: 0, labType: 'only', usePlace: false },
];

async function seedOrganizations(tx: Queryable) {
  for (const o of DEMO_ORGS) {
    await tx.query(
      `insert into organization (id, name, code, parent_id, lab_type, use_place) values ($1, $2, $3, $4, $5, $6)
       on conflict (id) do nothing`,
      [o.id, o.name, o.code, o.parentId, o.labType, o.usePlace],
    );
  }
}

export const organizationSeed: CapabilitySeed = {
  phase: 'identity',
  demoData: DEMO_ORGS,
  demo: (tx) => seedOrganizations(tx),
};

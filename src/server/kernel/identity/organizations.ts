import type { Queryable } from '../db/database.js';
import { one } from '../db/database.js';

export type LabType = 'base' | 'main' | 'sub' | 'only';

export interface Organization {
  id: number;
  name: string;
  code: string;
  parentId: number | null;
  labType: LabType;
  usePlace: boolean;
  definitionBarcodeRule: number;
  address: string | null;
  contact: string | null;
  phone: string | null;
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export const ORG_COLUMNS = `id, name, code, parent_id as "parentId", lab_type as "labType", use_place as "usePlace",
  definition_barcode_rule as "definitionBarcodeRule", address, contact, phone, enabled,
  created_at as "createdAt", updated_at as "updatedAt"`;

export function getOrganization(db: Queryable, id: number): Promise<Organization | undefined> {
  return one<Organization>(db, `select ${ORG_COLUMNS} from organization where id = $1`, [id]);
}

/** Spec 3 lab type as the page-entry flow reads it: 0/1 flags. */
export function labTypeFlags(org: Pick<Organization, 'labType'>): { isOnlyLab: 0 | 1; isMainLab: 0 | 1 } {
  return {
    isOnlyLab: org.labType === 'only' ? 1 : 0,
    isMainLab: org.labType === 'base' || org.labType === 'main' ? 1 : 0,
  };
}

/** The organisations an org manages: itself, its children, and for the base org every one. */
export async function managedOrganizations(db: Queryable, orgId: number): Promise<Organization[]> {
  return db.query<Organization>(
    `select ${ORG_COLUMNS} from organization
      where $1 = 0 or id = $1 or parent_id = $1
      order by id`,
    [orgId],
  );
}

export interface OrganizationInput {
  name: string;
  code: string;
  parentId: number | null;
  labType: LabType;
  usePlace?: boolean;
  definitionBarcodeRule?: number;
  address?: string | null;
  contact?: string | null;
  phone?: string | null;
  enabled?: boolean;
}

export async function insertOrganization(db: Queryable, input: OrganizationInput, id?: number): Promise<Organization> {
  const rows = await db.query<Organization>(
    `insert into organization (id, name, code, parent_id, lab_type, use_place, definition_barcode_rule, address, contact, phone, enabled)
     values (coalesce($1, nextval('organization_id_seq')::int), $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
     returning ${ORG_COLUMNS}`,
    [
      id ?? null,
      input.name,
      input.code,
      input.parentId,
      input.labType,
      input.usePlace ?? false,
      input.definitionBarcodeRule ?? 2,
      input.address ?? null,
      input.contact ?? null,
      input.phone ?? null,
      input.enabled ?? true,
    ],
  );
  return rows[0]!;
}

const UPDATABLE: Record<string, string> = {
  name: 'name',
  code: 'code',
  usePlace: 'use_place',
  definitionBarcodeRule: 'definition_barcode_rule',
  address: 'address',
  contact: 'contact',
  phone: 'phone',
  enabled: 'enabled',
};

export async function updateOrganization(
  db: Queryable,
  id: number,
  changes: Partial<OrganizationInput>,
): Promise<Organization | undefined> {
  const sets: string[] = [];
  const params: unknown[] = [id];
  for (const [key, column] of Object.entries(UPDATABLE)) {
    const value = (changes as Record<string, unknown>)[key];
    if (value === undefined) continue;
    params.push(value);
    sets.push(`${column} = $${params.length}`);
  }
  if (sets.length === 0) return getOrganization(db, id);
  return one<Organization>(
    db,
    `update organization set ${sets.join(', ')}, updated_at = now() where id = $1 returning ${ORG_COLUMNS}`,
    params,
  );
}

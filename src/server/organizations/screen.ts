import type { RecordValues } from '../../shared/screens/predicate.js';
import type { Kernel } from '../kernel/context.js';
import { conflict } from '../kernel/http/envelope.js';
import { contentVersion } from '../kernel/resources/contentVersion.js';
import type { TableAdapter, TableRecord, TableResource } from '../kernel/resources/tables.js';
import { managedOrganizations, type Organization, type OrganizationInput } from '../kernel/identity/organizations.js';
import { changeOrganization, createOrganization } from './service.js';

/**
 * The organisation structure screen (spec 2.2 group management, 10101): the organisations the caller
 * manages as a tree, base organisation → labs → sub labs. Writes follow the spec 7.3 rules (service.ts).
 */
const FIELDS = [
  'name',
  'code',
  'parentId',
  'labType',
  'usePlace',
  'definitionBarcodeRule',
  'address',
  'contact',
  'phone',
  'enabled',
] as const;

function organizationRecord(org: Organization, names: Map<number, string>): TableRecord {
  const values = Object.fromEntries(FIELDS.map((k) => [k, org[k] ?? undefined])) as RecordValues;
  return {
    id: org.id,
    version: contentVersion(values),
    ...values,
    ...(org.parentId !== null && names.has(org.parentId) && { labels: { parentId: names.get(org.parentId)! } }),
  };
}

/** What the screen writes, as the organisation calls take it (empty text is no value). */
function input(data: RecordValues): Partial<OrganizationInput> {
  const text = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
  return {
    name: typeof data.name === 'string' ? data.name.trim() : undefined,
    code: typeof data.code === 'string' ? data.code.trim() : undefined,
    parentId: typeof data.parentId === 'number' ? data.parentId : undefined,
    labType: data.labType as OrganizationInput['labType'],
    usePlace: typeof data.usePlace === 'boolean' ? data.usePlace : undefined,
    definitionBarcodeRule: typeof data.definitionBarcodeRule === 'number' ? data.definitionBarcodeRule : undefined,
    address: text(data.address),
    contact: text(data.contact),
    phone: text(data.phone),
    enabled: typeof data.enabled === 'boolean' ? data.enabled : undefined,
  };
}

export const ORGANIZATION_TABLE: TableResource = {
  resource: 'organization',
  adapter(ctx: Kernel): TableAdapter {
    const { db } = ctx;
    /** The organisations the caller manages, and every organisation's name (a lab's parent may lie outside them). */
    const managed = async (orgId: number) => {
      const all = await managedOrganizations(db, orgId);
      const names = await db.query<{ id: number; name: string }>('select id, name from organization');
      return { all, names: new Map(names.map((o) => [o.id, o.name])) };
    };

    return {
      async list(call, q) {
        const { all, names } = await managed(call.actor.orgId);
        const has = (value: string, part: string | undefined) =>
          !part || value.toLowerCase().includes(part.trim().toLowerCase());
        const rows = all.filter(
          (o) => has(o.name, q.name) && has(o.code, q.code) && (!q.labType || o.labType === q.labType),
        );
        return { records: rows.map((o) => organizationRecord(o, names)), total: rows.length };
      },
      async get(call, id) {
        const { all, names } = await managed(call.actor.orgId);
        const org = all.find((o) => o.id === id);
        return org && organizationRecord(org, names);
      },
      async create(call, data) {
        const created = await createOrganization(db, call.actor, input(data) as OrganizationInput, call.ip);
        const { names } = await managed(call.actor.orgId);
        return organizationRecord(created, names);
      },
      async update(call, current, data) {
        // The row must still be the one the user edited: nobody's change is overwritten.
        if (data.version !== current.version) throw conflict();
        // Where an organisation hangs and what it is are fixed once it exists.
        const changes = { ...input(data), parentId: undefined, labType: undefined };
        const updated = await changeOrganization(db, call.actor, current.id, changes, call.ip);
        const { names } = await managed(call.actor.orgId);
        return organizationRecord(updated!, names);
      },
    };
  },
};

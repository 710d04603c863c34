import type { RecordValues } from '../../shared/screens/predicate.js';
import type { Kernel } from '../kernel/context.js';
import { conflict } from '../kernel/http/envelope.js';
import { contentVersion } from '../kernel/resources/contentVersion.js';
import type { TableAdapter, TableRecord, TableResource } from '../kernel/resources/tables.js';
import { managedOrganizations, type Organization, type OrganizationInput } from '../kernel/identity/organizations.js';
import { changeOrganization, createOrganization } from './service.js';
import type { Locale } from '../../shared/i18n/messages.js';
import { appendLog } from '../kernel/audit/log.js';
import type { Database, Queryable } from '../kernel/db/database.js';
import type { AuthUser } from '../kernel/identity/actor.js';
import { getConfig, saveConfig } from '../kernel/labConfig/store.js';
import { TIME_ZONE_KEY, timeZoneKind } from '../kernel/labConfig/timeZone.js';
import { InvalidRecord } from '../kernel/http/envelope.js';

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

function organizationRecord(org: Organization, names: Map<number, string>, timeZone: string): TableRecord {
  const values = { ...Object.fromEntries(FIELDS.map((k) => [k, org[k] ?? undefined])), timeZone } as RecordValues;
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
    /**
     * The organisations the caller manages, every organisation's name (a lab's parent may lie outside
     * them) and each one's time zone (its saved one, else the server's).
     */
    const managed = async (orgId: number) => {
      const all = await managedOrganizations(db, orgId);
      const rows = await db.query<{ id: number; name: string }>('select id, name from organization');
      const names = new Map(rows.map((o) => [o.id, o.name]));
      const zones = new Map((await savedTimeZones(db)).map((z) => [z.orgId, z.zone]));
      const record = (org: Organization) => organizationRecord(org, names, zones.get(org.id) ?? ctx.config.timeZone);
      return { all, record };
    };

    return {
      async list(call, q) {
        const { all, record } = await managed(call.actor.orgId);
        const has = (value: string, part: string | undefined) =>
          !part || value.toLowerCase().includes(part.trim().toLowerCase());
        const rows = all.filter(
          (o) => has(o.name, q.name) && has(o.code, q.code) && (!q.labType || o.labType === q.labType),
        );
        return { records: rows.map(record), total: rows.length };
      },
      async get(call, id) {
        const { all, record } = await managed(call.actor.orgId);
        const org = all.find((o) => o.id === id);
        return org && record(org);
      },
      async create(call, data) {
        const zone = zoneOf(data, call.locale);
        const created = await createOrganization(db, call.actor, input(data) as OrganizationInput, call.ip);
        if (zone) await saveTimeZone(db, call, created.id, zone);
        return (await managed(call.actor.orgId)).record(created);
      },
      async update(call, current, data) {
        // The row must still be the one the user edited: nobody's change is overwritten.
        if (data.version !== current.version) throw conflict();
        // Where an organisation hangs and what it is are fixed once it exists.
        const changes = { ...input(data), parentId: undefined, labType: undefined };
        // A zone that does not exist is refused before anything is written.
        const zone = zoneOf(data, call.locale);
        const updated = await changeOrganization(db, call.actor, current.id, changes, call.ip);
        if (zone && zone !== current.timeZone) await saveTimeZone(db, call, current.id, zone);
        return (await managed(call.actor.orgId)).record(updated!);
      },
    };
  },
};

/** The zone the screen sends, checked as the lab configuration checks it; undefined when left empty. */
function zoneOf(data: RecordValues, locale: Locale): string | undefined {
  const zone = typeof data.timeZone === 'string' ? data.timeZone.trim() : '';
  if (zone === '') return undefined;
  const checked = timeZoneKind('UTC').check({ zone }, locale);
  if ('problem' in checked) throw new InvalidRecord([{ field: 'timeZone', message: checked.problem }]);
  return zone;
}

/** Every lab's saved time zone. */
function savedTimeZones(db: Queryable) {
  return db.query<{ orgId: number; zone: string }>(
    `select org_id as "orgId", value->>'zone' as zone from custom_config where config_key = '${TIME_ZONE_KEY}'`,
  );
}

/** A lab's time zone saved as its configuration (customConfig timeZone), logged with before and after. */
async function saveTimeZone(db: Database, call: { actor: AuthUser; ip: string }, orgId: number, zone: string) {
  await db.transaction(async (tx) => {
    const before = await getConfig(tx, orgId, TIME_ZONE_KEY);
    const row = await saveConfig(tx, orgId, TIME_ZONE_KEY, { zone }, call.actor.id);
    await appendLog(tx, call.actor, {
      resource: 'customConfig',
      recordId: TIME_ZONE_KEY,
      action: 'update',
      before: before?.value,
      after: row.value,
      ip: call.ip,
    });
  });
}

import type { ScreenSchema } from '../../shared/screens/fields.js';
import type { AppContext } from '../kernel/context.js';
import type { Queryable } from '../kernel/db/database.js';
import { one } from '../kernel/db/database.js';
import { ApiError } from '../kernel/http/envelope.js';
import { insertRecord, titlesOf, type StoredRecord } from '../kernel/resources/repository.js';

/** The handover (交接管理) and its lines, one specimen each (交接查询). */
export const HANDOVER = 'handoverRecord';
export const LINE = 'handoverItem';
/** Where the specimens' patient, type and purposes are registered (标本录入). */
const SPECIMEN_ENTRY = 'specialEntry';

/** A handover is open until its receiver confirms it: open while packed, then in transit. */
export const OPEN_STATUSES = ['open', 'transit'];
export const isOpen = (record: StoredRecord) => OPEN_STATUSES.includes(String(record.data.status ?? 'open'));

/** The screen a handover rule needs; a broken schema file is a server fault, not the user's. */
export function screenNamed(ctx: AppContext, resource: string): ScreenSchema {
  const screen = ctx.screens.byResource(resource);
  if (!screen) throw new ApiError(500, 'common.serverError');
  return screen;
}

/**
 * One writer of an organisation's handovers at a time: the same lock the generic resource takes for
 * a write of handoverRecord, so a confirmation, an edit and a new handover never interleave (a
 * specimen could otherwise slip into two open handovers).
 */
export async function lockHandovers(tx: Queryable, orgId: number): Promise<void> {
  await tx.query('select pg_advisory_xact_lock(hashtext($1), $2)', [HANDOVER, orgId]);
}

/** Local wall-clock time as the screens store datetimes ("YYYY-MM-DD HH:mm:ss"). */
export const stamp = (d: Date) =>
  new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 19).replace('T', ' ');

/** Of these barcodes, those on another open handover of the organisation, with that handover's number. */
export function openHolders(
  tx: Queryable,
  orgId: number,
  barcodes: string[],
  exceptId: number,
): Promise<{ barcode: string; handoverNo: string }[]> {
  if (barcodes.length === 0) return Promise.resolve([]);
  return tx.query(
    `select l.data->>'barcode' as barcode, h.data->>'handoverNo' as "handoverNo"
       from resource_record l
       join resource_record h on h.resource = $1 and h.org_id = l.org_id and h.id = (l.data->>'handover')::int
      where l.resource = $2 and l.org_id = $3 and l.data->>'barcode' = any($4::text[])
        and coalesce(h.data->>'status', 'open') = any($5::text[]) and h.id <> $6
      order by h.id, l.id`,
    [HANDOVER, LINE, orgId, barcodes, OPEN_STATUSES, exceptId],
  );
}

const LINE_COLUMNS = `id, version, org_id as "orgId", sync_flag as "syncFlag", source_id as "sourceId",
  created_at as "createdAt", updated_at as "updatedAt", data`;

/** The lines of some handovers, in the order they were scanned. */
export function linesOf(db: Queryable, orgId: number, handoverIds: number[]): Promise<StoredRecord[]> {
  return db.query<StoredRecord>(
    `select ${LINE_COLUMNS} from resource_record
      where resource = $1 and org_id = $2 and (data->>'handover')::int = any($3::int[]) order by id`,
    [LINE, orgId, handoverIds],
  );
}

/** Handovers of the organisation by id, in the order asked. */
export async function handoversByIds(db: Queryable, orgId: number, ids: number[]): Promise<StoredRecord[]> {
  const rows = await db.query<StoredRecord>(
    `select ${LINE_COLUMNS} from resource_record where resource = $1 and org_id = $2 and id = any($3::int[])`,
    [HANDOVER, orgId, ids],
  );
  return ids.flatMap((id) => rows.filter((r) => r.id === id));
}

interface SpecimenInfo {
  patientName?: string;
  specimenType?: string;
  itemNames?: string;
}

/** What the lab registered about each barcode (标本录入): patient, specimen type, inspection purposes. */
async function specimenInfo(db: Queryable, orgId: number, barcodes: string[]): Promise<Map<string, SpecimenInfo>> {
  const rows = await db.query<{ data: Record<string, unknown> }>(
    `select data from resource_record where resource = $1 and org_id = $2 and data->>'barcode' = any($3::text[])`,
    [SPECIMEN_ENTRY, orgId, barcodes],
  );
  const ids = (key: string) =>
    rows.flatMap((r) => [r.data[key]].flat()).filter((v): v is number => typeof v === 'number');
  const types = await titlesOf(db, 'specimenType', 'name', orgId, ids('specimenType'));
  const purposes = await titlesOf(db, 'inspectionPurpose', 'name', orgId, ids('purposes'));
  const info = new Map<string, SpecimenInfo>();
  for (const { data } of rows) {
    const purposeIds = [data.purposes].flat().filter((v): v is number => typeof v === 'number');
    info.set(String(data.barcode), {
      patientName: typeof data.patientName === 'string' ? data.patientName : undefined,
      specimenType: typeof data.specimenType === 'number' ? types.get(data.specimenType) : undefined,
      itemNames: purposeIds.length > 0 ? purposeIds.map((id) => purposes.get(id) ?? String(id)).join(',') : undefined,
    });
  }
  return info;
}

/**
 * Makes the lines of a handover follow its barcodes: a new barcode gets a line (with what the lab
 * registered about the specimen), a barcode taken off loses its line, a line kept keeps its check.
 */
export async function syncLines(
  tx: Queryable,
  lineScreen: ScreenSchema,
  handover: StoredRecord,
  barcodes: string[],
  userId: number,
): Promise<void> {
  const lines = await linesOf(tx, handover.orgId, [handover.id]);
  const wanted = new Set(barcodes);
  const gone = lines.filter((l) => !wanted.has(String(l.data.barcode))).map((l) => l.id);
  if (gone.length > 0)
    await tx.query('delete from resource_record where resource = $1 and org_id = $2 and id = any($3::int[])', [
      LINE,
      handover.orgId,
      gone,
    ]);
  const have = new Set(lines.map((l) => String(l.data.barcode)));
  const added = barcodes.filter((b) => !have.has(b));
  if (added.length === 0) return;
  const info = await specimenInfo(tx, handover.orgId, added);
  for (const barcode of added) {
    const known = Object.fromEntries(Object.entries(info.get(barcode) ?? {}).filter(([, v]) => v !== undefined));
    await insertRecord(
      tx,
      lineScreen,
      handover.orgId,
      { handover: handover.id, barcode, ...known, checkResult: 'pending' },
      userId,
    );
  }
}

/** Removes the lines of a handover (the handover itself is being deleted). */
export async function deleteLines(tx: Queryable, orgId: number, handoverId: number): Promise<void> {
  await tx.query(`delete from resource_record where resource = $1 and org_id = $2 and (data->>'handover')::int = $3`, [
    LINE,
    orgId,
    handoverId,
  ]);
}

/** The next number of the day, JJyyyyMMdd-0001 onwards (under the handover lock, so never issued twice). */
export async function nextHandoverNo(tx: Queryable, orgId: number, now: Date): Promise<string> {
  const prefix = `JJ${stamp(now).slice(0, 10).replaceAll('-', '')}-`;
  const row = await one<{ last: number | null }>(
    tx,
    `select max((substring(data->>'handoverNo' from '^${prefix}([0-9]{1,9})$'))::int) as last
       from resource_record where resource = $1 and org_id = $2 and data->>'handoverNo' like $3`,
    [HANDOVER, orgId, `${prefix}%`],
  );
  return `${prefix}${String((row?.last ?? 0) + 1).padStart(4, '0')}`;
}

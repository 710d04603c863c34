import { localDateTime } from '../../shared/time.js';
import type { Queryable } from '../kernel/db/database.js';
import type { RecordStore, Stored } from '../kernel/resources/store.js';
import type { AnyStored } from '../kernel/resources/records.js';
import type { StoredRecord } from '../kernel/resources/repository.js';

/** The handover (交接管理) and its lines, one specimen each (交接查询). */
export const HANDOVER = 'handoverRecord' as const;
export const LINE = 'handoverItem' as const;

/** A handover and one of its lines, as stored. */
export type Handover = Stored<'handoverRecord'>;
export type HandoverLine = Stored<'handoverItem'>;

/** A handover is open until its receiver confirms it: open while packed, then in transit. */
export const OPEN_STATUSES = ['open', 'transit'];
export const isOpen = (record: AnyStored) =>
  OPEN_STATUSES.includes(String((record.data as { status?: unknown }).status ?? 'open'));

/**
 * One writer of an organisation's handovers at a time: the same lock the generic resource takes for
 * a write of handoverRecord, so a confirmation, an edit and a new handover never interleave (a
 * specimen could otherwise slip into two open handovers).
 */
export function lockHandovers(records: RecordStore, tx: Queryable, orgId: number): Promise<void> {
  return records.serialize(tx, HANDOVER, orgId);
}

/** Handovers of the organisation by id, in the order asked. */
export function handoversByIds(records: RecordStore, db: Queryable, orgId: number, ids: number[]): Promise<Handover[]> {
  return records.byIds(db, HANDOVER, orgId, ids);
}

/** A local time of the lab, in its zone (the acting user's lab's): handover times, slip and file dates. */
export const stamp = (d: Date, timeZone: string | undefined) => localDateTime(d, timeZone);

/** Of these barcodes, those on another open handover of the organisation, with that handover's number. */
export async function openHolders(
  records: RecordStore,
  tx: Queryable,
  orgId: number,
  barcodes: string[],
  exceptId: number,
): Promise<{ barcode: string; handoverNo: string }[]> {
  if (barcodes.length === 0) return [];
  const lines = await records.find(tx, LINE, orgId, { barcode: barcodes });
  const handoverIds = [...new Set(lines.map((l) => Number(l.data.handover)))].filter((id) => id !== exceptId);
  const open = new Map(
    (await records.byIds(tx, HANDOVER, orgId, handoverIds)).filter(isOpen).map((h) => [h.id, h] as const),
  );
  return lines
    .filter((l) => open.has(Number(l.data.handover)))
    .sort((a, b) => Number(a.data.handover) - Number(b.data.handover) || a.id - b.id)
    .map((l) => ({
      barcode: String(l.data.barcode),
      handoverNo: String(open.get(Number(l.data.handover))!.data.handoverNo),
    }));
}

/** The lines of some handovers, in the order they were scanned. */
export function linesOf(
  records: RecordStore,
  db: Queryable,
  orgId: number,
  handoverIds: number[],
): Promise<HandoverLine[]> {
  return records.find(db, LINE, orgId, { handover: handoverIds });
}

interface SpecimenInfo {
  patientName?: string;
  specimenType?: string;
  itemNames?: string;
}

/** What the lab registered about each barcode (the one specimen record): patient, specimen type, inspection purposes. */
async function specimenInfo(
  records: RecordStore,
  db: Queryable,
  orgId: number,
  barcodes: string[],
): Promise<Map<string, SpecimenInfo>> {
  const rows = await records.find(db, 'specimen', orgId, { barcode: barcodes });
  const types = await records.titles(
    db,
    'specimenType',
    orgId,
    rows.map((r) => r.data.specimenType).filter((v): v is number => typeof v === 'number'),
  );
  const purposeIdsOf = (purposes: unknown) => [purposes].flat().filter((v): v is number => typeof v === 'number');
  const purposes = await records.titles(
    db,
    'inspectionPurpose',
    orgId,
    rows.flatMap((r) => purposeIdsOf(r.data.purposes)),
  );
  const info = new Map<string, SpecimenInfo>();
  for (const { data } of rows) {
    const purposeIds = purposeIdsOf(data.purposes);
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
  records: RecordStore,
  tx: Queryable,
  handover: StoredRecord,
  barcodes: string[],
  userId: number,
): Promise<void> {
  const lines = await linesOf(records, tx, handover.orgId, [handover.id]);
  const wanted = new Set(barcodes);
  const gone = lines.filter((l) => !wanted.has(String(l.data.barcode))).map((l) => l.id);
  await records.removeIds(tx, LINE, handover.orgId, gone);
  const have = new Set(lines.map((l) => String(l.data.barcode)));
  const added = barcodes.filter((b) => !have.has(b));
  if (added.length === 0) return;
  const info = await specimenInfo(records, tx, handover.orgId, added);
  for (const barcode of added) {
    const known = Object.fromEntries(Object.entries(info.get(barcode) ?? {}).filter(([, v]) => v !== undefined));
    await records.insert(
      tx,
      LINE,
      handover.orgId,
      { handover: handover.id, barcode, ...known, checkResult: 'pending' },
      userId,
    );
  }
}

/** Removes the lines of a handover (the handover itself is being deleted). */
export async function deleteLines(records: RecordStore, tx: Queryable, orgId: number, handoverId: number) {
  await records.remove(tx, LINE, orgId, { handover: handoverId });
}

/** The next number of the day, JJyyyyMMdd-0001 onwards (under the handover lock, so never issued twice). */
export async function nextHandoverNo(
  records: RecordStore,
  tx: Queryable,
  orgId: number,
  now: Date,
  timeZone: string | undefined,
): Promise<string> {
  const prefix = `JJ${stamp(now, timeZone).slice(0, 10).replaceAll('-', '')}-`;
  return records.nextNumber(tx, HANDOVER, orgId, 'handoverNo', prefix);
}

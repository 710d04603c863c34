import { localDateTime } from '../../shared/time.js';
import type { Kernel } from '../kernel/context.js';
import type { Queryable } from '../kernel/db/database.js';
import type { HookRegistration } from '../kernel/resources/hooks.js';
import type { StoredRecord } from '../kernel/resources/repository.js';
import {
  openLinesOf,
  writeCharges,
  writeReversals,
  type ChargeLine,
  type ChargeReason,
  type LineWrite,
} from './ledger.js';
import { billedUnits, priceUnit, type BilledUnit, type PriceBook } from './pricing.js';
import { labTimeZone } from '../kernel/labConfig/timeZone.js';

/** States in which a specimen is not charged: the request was cancelled or the lab refused the specimen. */
const UNCHARGED: Record<string, ChargeReason> = { cancelled: 'cancelled', rejected: 'rejected' };

/**
 * Today in the lab's zone (its saved one, else the server's): the day charge lines, reversals and
 * write-offs are dated, whoever or whatever (a recalculation running on) writes them.
 */
export const today = async (kernel: Kernel, tx: Queryable, orgId: number) =>
  localDateTime(kernel.now(), await labTimeZone(tx, orgId, kernel.config.timeZone)).slice(0, 10);

/** The day a specimen's charges belong to: the day it was registered (its first charge), else today. */
async function serviceDay(kernel: Kernel, tx: Queryable, row: StoredRecord): Promise<string> {
  const [first] = await tx.query<{ day: string | null }>(
    `select to_char(min(service_date), 'YYYY-MM-DD') as day from charge_line
     where org_id = $1 and specimen_id = $2 and kind = 'charge'`,
    [row.orgId, row.id],
  );
  return first?.day ?? today(kernel, tx, row.orgId);
}

const sameUnit = (l: ChargeLine, u: BilledUnit) => l.unit === u.unit && l.refId === u.refId;

/**
 * Brings a specimen's charges in line with what it orders now: a line for each unit ordered that has
 * none, a reversing line for each charge whose unit is no longer ordered (or whose hospital changed, or
 * when the specimen is cancelled or rejected). Lines still ordered keep the price they were given;
 * a recalculation is what reprices them.
 */
export async function chargeSpecimen(
  kernel: Kernel,
  tx: Queryable,
  row: StoredRecord,
  actor: LineWrite['actor'],
): Promise<void> {
  const s = row.data;
  const hospitalId = Number(s.hospital);
  const barcode = String(s.barcode ?? '');
  const open = await openLinesOf(tx, row.orgId, row.id);
  const ended = UNCHARGED[String(s.status)];
  let wanted: BilledUnit[] = [];
  let book: PriceBook | undefined;
  if (!ended && hospitalId) {
    const purposeIds = (Array.isArray(s.purposes) ? s.purposes : []).map(Number).filter(Boolean);
    ({ units: wanted, book } = await billedUnits(kernel, tx, row.orgId, { purposeIds, sex: String(s.sex), barcode }));
  }
  const at = kernel.now();
  const stale = open.filter((l) => l.hospitalId !== hospitalId || !wanted.some((u) => sameUnit(l, u)));
  const reasonOf = (l: ChargeLine): ChargeReason =>
    ended ?? (l.hospitalId !== hospitalId ? 'hospitalChanged' : 'orderRemoved');
  for (const reason of new Set(stale.map(reasonOf)))
    await writeReversals(
      tx,
      stale.filter((l) => reasonOf(l) === reason),
      { actor, at, reason },
      await today(kernel, tx, row.orgId),
    );
  const kept = open.filter((l) => !stale.includes(l));
  const missing = wanted.filter((u) => !kept.some((l) => sameUnit(l, u)));
  if (!book || missing.length === 0) return;
  const day = await serviceDay(kernel, tx, row);
  await writeCharges(
    tx,
    missing.map((unit) => ({
      orgId: row.orgId,
      specimenId: row.id,
      barcode,
      hospitalId,
      serviceDate: day,
      unit,
      priced: priceUnit(book, unit, hospitalId, day, barcode),
    })),
    { actor, at, reason: 'ordered' },
  );
}

/** Whether a write changed what a specimen is billed for: its hospital, its orders, or whether it is charged at all. */
function billingChanged(before: Record<string, unknown>, after: Record<string, unknown>): boolean {
  const orders = (d: Record<string, unknown>) =>
    JSON.stringify([...(Array.isArray(d.purposes) ? d.purposes : [])].map(Number).sort((a, b) => a - b));
  return (
    before.hospital !== after.hospital ||
    orders(before) !== orders(after) ||
    UNCHARGED[String(before.status)] !== UNCHARGED[String(after.status)]
  );
}

/**
 * Registering a specimen charges its hospital for what it orders; changing the orders or the hospital,
 * cancelling or rejecting it reverses what no longer applies. Runs after the specimen's own rules, in
 * the write's transaction: a specimen is never stored without its charges.
 */
export const specimenCharges: HookRegistration = {
  resource: 'specimen',
  order: 800,
  hooks: {
    async afterWrite({ tx, kernel, actor, current }, row) {
      // Most writes of a specimen (received, tested, reported) change nothing finance bills: no work then.
      if (current && !billingChanged(current.data, row.data)) return;
      await chargeSpecimen(kernel, tx, row, actor);
    },
  },
};

/** A specimen deleted at the front desk (while only registered) leaves its charges reversed, never deleted. */
export const specimenDeleted: HookRegistration = {
  resource: 'specimen',
  order: 800,
  hooks: {
    async beforeDelete({ tx, kernel, actor, current }) {
      const open = await openLinesOf(tx, current.orgId, current.id);
      await writeReversals(
        tx,
        open,
        { actor, at: kernel.now(), reason: 'deleted' },
        await today(kernel, tx, current.orgId),
      );
    },
  },
};

import type { Kernel } from '../kernel/context.js';
import type { Queryable } from '../kernel/db/database.js';
import { today } from './charges.js';
import { writeCharges, writeReversals, type ChargeLine, type LineWrite } from './ledger.js';
import { covers, priceBook, priceUnit, rowOf, unitsOf, type BilledUnit, type Priced } from './pricing.js';

/** One line a repricing changed: the line as it was, and what it costs now. */
export interface Change {
  before: ChargeLine;
  after: Priced;
}

const differs = (l: ChargeLine, p: Priced) =>
  l.listCents !== p.listCents ||
  l.priceCents !== p.priceCents ||
  l.discountCents !== p.discountCents ||
  l.freeCents !== p.freeCents ||
  l.priceSource !== p.priceSource;

/** The units of lines as the catalogue describes them today (a unit since removed keeps the line's own). */
async function currentUnits(kernel: Kernel, tx: Queryable, orgId: number, lines: ChargeLine[]) {
  const ids = (unit: string) => [...new Set(lines.filter((l) => l.unit === unit).map((l) => l.refId))];
  const sets = (await kernel.records.byIds(tx, 'inspectionSet', orgId, ids('set'))).map(rowOf);
  const purposes = (await kernel.records.byIds(tx, 'inspectionPurpose', orgId, ids('purpose'))).map(rowOf);
  const items = (await kernel.records.byIds(tx, 'inspectionItem', orgId, ids('item'))).map(rowOf);
  const described = await unitsOf(kernel, tx, orgId, { sets, purposes, items });
  const units = new Map(described.map((u) => [`${u.unit}:${u.refId}`, u]));
  return (l: ChargeLine): BilledUnit =>
    units.get(`${l.unit}:${l.refId}`) ?? {
      unit: l.unit,
      refId: l.refId,
      code: l.code,
      name: l.name,
      group: [],
      catalogueCents: l.listCents,
    };
}

/** A line's amounts and the rules that made them. */
const pricedOf = (l: Priced): Priced => ({
  listCents: l.listCents,
  priceCents: l.priceCents,
  discountCents: l.discountCents,
  freeCents: l.freeCents,
  payableCents: l.payableCents,
  priceSource: l.priceSource,
  priceId: l.priceId,
  discountId: l.discountId,
  discountRate: l.discountRate,
  freeId: l.freeId,
});

/**
 * Prices open lines again and writes what changed: for each line whose amounts differ, a reversing line
 * and a new charge of the same specimen and day, both marked with the step that made them (a
 * recalculation, a waiver). `only` narrows what is looked at again: everything (a recalculation), or
 * only the free-of-charge part (a waiver approved or withdrawn keeps the price and discount given).
 */
export async function reprice(
  kernel: Kernel,
  tx: Queryable,
  orgId: number,
  lines: ChargeLine[],
  w: LineWrite,
  only: 'all' | 'waiver',
): Promise<Change[]> {
  if (lines.length === 0) return [];
  const unitOf = await currentUnits(kernel, tx, orgId, lines);
  const codes = only === 'all' ? lines.map((l) => unitOf(l).code) : [];
  const book = await priceBook(kernel, tx, orgId, codes, [...new Set(lines.map((l) => l.barcode))]);
  const changes: Change[] = [];
  for (const line of lines) {
    const unit = unitOf(line);
    let after: Priced;
    if (only === 'all') after = priceUnit(book, unit, line.hospitalId, line.serviceDate, line.barcode);
    else {
      const free = (book.frees.get(line.barcode) ?? []).find((f) => covers(f, unit));
      const freeCents = free ? line.priceCents - line.discountCents : 0;
      after = {
        ...pricedOf(line),
        freeCents,
        freeId: free?.id ?? null,
        payableCents: line.priceCents - line.discountCents - freeCents,
      };
    }
    if (differs(line, after)) changes.push({ before: line, after });
  }
  await writeReversals(
    tx,
    changes.map((c) => c.before),
    w,
    await today(kernel, tx, orgId),
  );
  await writeCharges(
    tx,
    changes.map(({ before, after }) => ({
      orgId,
      specimenId: before.specimenId,
      barcode: before.barcode,
      hospitalId: before.hospitalId,
      serviceDate: before.serviceDate,
      unit: unitOf(before),
      priced: after,
    })),
    w,
  );
  return changes;
}

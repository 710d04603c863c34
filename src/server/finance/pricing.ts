import type { Kernel } from '../kernel/context.js';
import type { Queryable } from '../kernel/db/database.js';
import { cents, discounted, rateTenths } from './money.js';

/**
 * One thing billed for a specimen: an inspection set whose purposes it orders, a purpose priced as a
 * whole, or an item of a purpose without a price.
 */
export interface BilledUnit {
  unit: 'set' | 'purpose' | 'item';
  refId: number;
  code: string;
  name: string;
  /** The professional group's name and code, which a group discount names. */
  group: string[];
  /** The catalogue's own price (the purpose's or the item's), the last resort of pricing. */
  catalogueCents?: number;
}

/** A unit's price for one hospital on one day, with the rules that made it. */
export interface Priced {
  listCents: number;
  priceCents: number;
  discountCents: number;
  freeCents: number;
  payableCents: number;
  priceSource: 'agreement' | 'standard' | 'catalogue' | 'none';
  priceId: number | null;
  discountId: number | null;
  discountRate: number | null;
  freeId: number | null;
}

type Row = { id: number; data: Record<string, unknown> };

/** The price list, discounts and approved waivers that price a set of units, read once for all of them. */
export interface PriceBook {
  prices: Row[];
  discounts: Row[];
  /** Approved free-of-charge records by barcode. */
  frees: Map<string, Row[]>;
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');
const inPeriod = (day: string, from: unknown, to: unknown) =>
  text(from) !== '' && text(from) <= day && (text(to) === '' || day <= text(to));
const enabled = (r: Row) => r.data.enabled !== false;

/** A catalogue row as finance reads it. */
export const rowOf = (r: { id: number; data: object }): Row => ({
  id: r.id,
  data: r.data as unknown as Record<string, unknown>,
});

/** Sets, purposes and items as billed units, with their professional group's name and code (a set has none). */
export async function unitsOf(
  kernel: Kernel,
  tx: Queryable,
  orgId: number,
  units: { sets?: Row[]; purposes: Row[]; items: Row[] },
): Promise<BilledUnit[]> {
  const { sets = [], purposes, items } = units;
  const groupIds = [...purposes, ...items].map((r) => Number(r.data.professionalGroup)).filter(Boolean);
  const groups = (await kernel.records.byIds(tx, 'professionalGroup', orgId, [...new Set(groupIds)])).map(rowOf);
  const groupOf = (id: unknown) => {
    const g = groups.find((x) => x.id === Number(id));
    return g ? [text(g.data.name), text(g.data.code)].filter(Boolean) : [];
  };
  const unit = (kind: BilledUnit['unit'], r: Row): BilledUnit => ({
    unit: kind,
    refId: r.id,
    code: text(r.data.code),
    name: text(r.data.name),
    group: groupOf(r.data.professionalGroup),
    catalogueCents: cents(r.data.price),
  });
  return [
    ...sets.map((x) => unit('set', x)),
    ...purposes.map((p) => unit('purpose', p)),
    ...items.map((i) => unit('item', i)),
  ];
}

/**
 * The inspection sets a specimen's purposes make up: an enabled set (of two purposes or more, for the
 * patient's sex) all of whose purposes are ordered is billed at the set's price instead of them. The
 * largest set is taken first; a purpose goes into one set at most.
 */
function setsOrdered(sets: Row[], purposeIds: number[], sex: string): { sets: Row[]; rest: number[] } {
  const purposesOf = (x: Row) => (Array.isArray(x.data.purposes) ? x.data.purposes.map(Number) : []);
  const candidates = sets
    .filter((x) => enabled(x) && purposesOf(x).length >= 2)
    .filter((x) => !x.data.sex || x.data.sex === 'all' || x.data.sex === sex)
    .sort((a, b) => purposesOf(b).length - purposesOf(a).length || a.id - b.id);
  let rest = [...new Set(purposeIds)];
  const taken: Row[] = [];
  for (const x of candidates) {
    if (!purposesOf(x).every((p) => rest.includes(p))) continue;
    taken.push(x);
    rest = rest.filter((p) => !purposesOf(x).includes(p));
  }
  return { sets: taken, rest };
}

/**
 * What a specimen orders, as finance bills it, and the price book that prices it: the inspection sets its
 * purposes make up, each one line at the set's price; each other purpose with a price of its own (in
 * the catalogue or on the price list under its code) one line, priced as a whole; a purpose without one
 * item by item (an item two purposes share is billed once). The price list is read for these codes only.
 */
export async function billedUnits(
  kernel: Kernel,
  tx: Queryable,
  orgId: number,
  ordered: { purposeIds: number[]; sex: string; barcode: string },
): Promise<{ units: BilledUnit[]; book: PriceBook }> {
  const allSets = (await kernel.records.find(tx, 'inspectionSet', orgId)).map(rowOf);
  const { sets, rest } = setsOrdered(allSets, ordered.purposeIds, ordered.sex);
  const purposes = (await kernel.records.byIds(tx, 'inspectionPurpose', orgId, rest)).map(rowOf);
  const itemsOf = (p: Row) => (Array.isArray(p.data.items) ? p.data.items.map(Number) : []);
  const items = (await kernel.records.byIds(tx, 'inspectionItem', orgId, [...new Set(purposes.flatMap(itemsOf))])).map(
    rowOf,
  );
  const codes = [...sets, ...purposes, ...items].map((r) => text(r.data.code)).filter(Boolean);
  const book = await priceBook(kernel, tx, orgId, codes, [ordered.barcode]);
  const listed = listedIn(book);
  const whole = purposes.filter((p) => cents(p.data.price) !== undefined || listed(text(p.data.code)));
  const billedItems = new Set(purposes.filter((p) => !whole.includes(p)).flatMap(itemsOf));
  const units = await unitsOf(kernel, tx, orgId, {
    sets,
    purposes: whole,
    items: items.filter((i) => billedItems.has(i.id)),
  });
  return { units, book };
}

/** The price list entries (enabled) of these codes, the enabled discounts, and approved waivers of these barcodes. */
export async function priceBook(
  kernel: Kernel,
  tx: Queryable,
  orgId: number,
  codes: string[],
  barcodes: string[],
): Promise<PriceBook> {
  const prices =
    codes.length > 0 ? await kernel.records.find(tx, 'itemPrice', orgId, { itemCode: [...new Set(codes)] }) : [];
  const discounts = await kernel.records.find(tx, 'discount', orgId);
  const approved =
    barcodes.length > 0
      ? await kernel.records.find(tx, 'freeOfCharge', orgId, {
          barcode: [...new Set(barcodes)],
          approvalStatus: 'approved',
        })
      : [];
  const frees = new Map<string, Row[]>();
  for (const f of approved.map(rowOf)) frees.set(text(f.data.barcode), [...(frees.get(text(f.data.barcode)) ?? []), f]);
  const rows = (list: { id: number; data: object }[]) => list.map(rowOf).filter(enabled);
  return { prices: rows(prices), discounts: rows(discounts), frees };
}

/** Whether the price list has any entry under a code (a purpose listed there is billed as a whole). */
export const listedIn = (book: PriceBook) => (code: string) => book.prices.some((p) => p.data.itemCode === code);

/** The names and codes a waiver lists (comma-separated, as on the request). */
const waived = (free: Row) =>
  text(free.data.itemNames)
    .split(/[,，、;；]/)
    .map((s) => s.trim())
    .filter(Boolean);

/** Whether a waiver covers a unit: it names the unit, by name or code. */
export const covers = (free: Row, u: Pick<BilledUnit, 'code' | 'name'>) =>
  waived(free).some((w) => w === u.name || w === u.code);

/**
 * A unit's charge for a hospital on a day:
 * - price: the hospital's agreed price, else the standard list price, else the catalogue's (latest start wins);
 * - discount: the most specific enabled discount of the day (one item before a group before all items,
 *   the hospital's own before one for every hospital, then the larger discount), on the settlement price;
 * - free of charge: an approved waiver of the specimen naming the unit leaves nothing to pay.
 */
export function priceUnit(book: PriceBook, u: BilledUnit, hospitalId: number, day: string, barcode: string): Priced {
  const current = book.prices
    .filter((p) => p.data.itemCode === u.code && inPeriod(day, p.data.effectiveFrom, p.data.effectiveTo))
    .sort((a, b) => text(b.data.effectiveFrom).localeCompare(text(a.data.effectiveFrom)) || b.id - a.id);
  const agreed = current.find((p) => p.data.priceType === 'agreement' && Number(p.data.hospital) === hospitalId);
  const standard = current.find((p) => p.data.priceType === 'standard' && p.data.hospital == null);
  const entry = agreed ?? standard;
  let listCents = u.catalogueCents ?? 0;
  let priceCents = listCents;
  let priceSource: Priced['priceSource'] = u.catalogueCents === undefined ? 'none' : 'catalogue';
  if (entry) {
    priceCents = cents(entry.data.settlementPrice) ?? 0;
    listCents = cents(entry.data.standardPrice) ?? priceCents;
    priceSource = entry === agreed ? 'agreement' : 'standard';
  }

  const scopeRank = (d: Row) =>
    d.data.scope === 'item'
      ? d.data.itemCode === u.code
        ? 3
        : 0
      : d.data.scope === 'group'
        ? u.group.includes(text(d.data.professionalGroup).trim())
          ? 2
          : 0
        : 1;
  const applicable = book.discounts
    .filter((d) => d.data.hospital == null || Number(d.data.hospital) === hospitalId)
    .filter((d) => inPeriod(day, d.data.validFrom, d.data.validTo) && scopeRank(d) > 0)
    .sort(
      (a, b) =>
        scopeRank(b) - scopeRank(a) ||
        Number(b.data.hospital != null) - Number(a.data.hospital != null) ||
        Number(a.data.discountRate) - Number(b.data.discountRate) ||
        a.id - b.id,
    );
  const discount = applicable[0];
  const tenths = discount ? rateTenths(Number(discount.data.discountRate)) : 1000;
  const discountCents = priceCents - discounted(priceCents, tenths);

  const free = (book.frees.get(barcode) ?? []).find((f) => covers(f, u));
  const freeCents = free ? priceCents - discountCents : 0;
  return {
    listCents,
    priceCents,
    discountCents,
    freeCents,
    payableCents: priceCents - discountCents - freeCents,
    priceSource,
    priceId: entry?.id ?? null,
    discountId: discount?.id ?? null,
    discountRate: discount ? tenths / 10 : null,
    freeId: free?.id ?? null,
  };
}

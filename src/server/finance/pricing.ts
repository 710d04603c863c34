import type { Kernel } from '../kernel/context.js';
import type { Queryable } from '../kernel/db/database.js';
import { cents, discounted, rateTenths } from './money.js';

/** One thing billed for a specimen: a purpose priced as a whole, or an item of a purpose without a price. */
export interface BilledUnit {
  unit: 'purpose' | 'item';
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

/** Purposes and items as billed units, with their professional group's name and code. */
export async function unitsOf(
  kernel: Kernel,
  tx: Queryable,
  orgId: number,
  purposes: Row[],
  items: Row[],
): Promise<BilledUnit[]> {
  const groupIds = [...purposes, ...items].map((r) => Number(r.data.professionalGroup)).filter(Boolean);
  const groups = (await kernel.records.byIds(tx, 'professionalGroup', orgId, [...new Set(groupIds)])).map(rowOf);
  const groupOf = (id: unknown) => {
    const g = groups.find((x) => x.id === Number(id));
    return g ? [text(g.data.name), text(g.data.code)].filter(Boolean) : [];
  };
  const unit = (kind: 'purpose' | 'item', r: Row): BilledUnit => ({
    unit: kind,
    refId: r.id,
    code: text(r.data.code),
    name: text(r.data.name),
    group: groupOf(r.data.professionalGroup),
    catalogueCents: cents(r.data.price),
  });
  return [...purposes.map((p) => unit('purpose', p)), ...items.map((i) => unit('item', i))];
}

/**
 * What a specimen orders, as finance bills it, and the price book that prices it: each purpose with a
 * price of its own (in the catalogue or on the price list under its code) is one line, priced as a whole
 * like a set; a purpose without one is billed item by item. An item two purposes share is billed once.
 * The price list is read for these purposes' and items' codes only.
 */
export async function billedUnits(
  kernel: Kernel,
  tx: Queryable,
  orgId: number,
  purposeIds: number[],
  barcode: string,
): Promise<{ units: BilledUnit[]; book: PriceBook }> {
  const purposes = (await kernel.records.byIds(tx, 'inspectionPurpose', orgId, [...new Set(purposeIds)])).map(rowOf);
  const itemsOf = (p: Row) => (Array.isArray(p.data.items) ? p.data.items.map(Number) : []);
  const items = (await kernel.records.byIds(tx, 'inspectionItem', orgId, [...new Set(purposes.flatMap(itemsOf))])).map(
    rowOf,
  );
  const codes = [...purposes, ...items].map((r) => text(r.data.code)).filter(Boolean);
  const book = await priceBook(kernel, tx, orgId, codes, [barcode]);
  const listed = listedIn(book);
  const whole = purposes.filter((p) => cents(p.data.price) !== undefined || listed(text(p.data.code)));
  const billedItems = new Set(purposes.filter((p) => !whole.includes(p)).flatMap(itemsOf));
  const units = await unitsOf(
    kernel,
    tx,
    orgId,
    whole,
    items.filter((i) => billedItems.has(i.id)),
  );
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

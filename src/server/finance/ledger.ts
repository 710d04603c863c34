import type { Queryable } from '../kernel/db/database.js';
import type { AuthUser } from '../kernel/identity/actor.js';
import type { BilledUnit, Priced } from './pricing.js';

/** A charge line as the ledger keeps it (amounts in cents). */
export interface ChargeLine extends Priced {
  id: number;
  orgId: number;
  specimenId: number;
  barcode: string;
  hospitalId: number;
  serviceDate: string;
  kind: 'charge' | 'reversal';
  unit: BilledUnit['unit'];
  refId: number;
  code: string;
  name: string;
  reverses: number | null;
  reason: ChargeReason;
  recalculationId: number | null;
  statementId: number | null;
  createdBy: number | null;
  createdByName: string | null;
  createdAt: Date;
}

/** Why a line was written: the specimen's orders, its end, a recalculation, a waiver. */
export type ChargeReason =
  | 'ordered'
  | 'orderRemoved'
  | 'hospitalChanged'
  | 'cancelled'
  | 'rejected'
  | 'recalculated'
  | 'waiverChanged'
  | 'deleted';

export const LINE_COLUMNS = `id::int as "id", org_id as "orgId", specimen_id::int as "specimenId", barcode,
  hospital_id::int as "hospitalId", to_char(service_date, 'YYYY-MM-DD') as "serviceDate", kind, unit,
  ref_id::int as "refId", code, name, list_cents::int as "listCents", price_cents::int as "priceCents",
  discount_cents::int as "discountCents", free_cents::int as "freeCents", payable_cents::int as "payableCents",
  price_source as "priceSource", price_id::int as "priceId", discount_id::int as "discountId",
  discount_rate::float8 as "discountRate", free_id::int as "freeId", reverses::int as "reverses", reason,
  recalculation_id::int as "recalculationId", statement_id::int as "statementId", created_by as "createdBy",
  created_by_name as "createdByName", created_at as "createdAt"`;

/** Lines still in force: charges no line has reversed. */
export const OPEN = `kind = 'charge' and not exists (select 1 from charge_line r where r.reverses = charge_line.id)`;

export async function openLinesOf(tx: Queryable, orgId: number, specimenId: number): Promise<ChargeLine[]> {
  return tx.query<ChargeLine>(
    `select ${LINE_COLUMNS} from charge_line where org_id = $1 and specimen_id = $2 and ${OPEN} order by id`,
    [orgId, specimenId],
  );
}

/** Who writes a line, when, and why. */
export interface LineWrite {
  actor: Pick<AuthUser, 'id' | 'userName'>;
  at: Date;
  reason: ChargeReason;
  recalculationId?: number;
}

export interface NewCharge {
  orgId: number;
  specimenId: number;
  barcode: string;
  hospitalId: number;
  serviceDate: string;
  unit: BilledUnit;
  priced: Priced;
}

const INSERT = `insert into charge_line (org_id, specimen_id, barcode, hospital_id, service_date, kind, unit, ref_id,
  code, name, list_cents, price_cents, discount_cents, free_cents, payable_cents, price_source, price_id,
  discount_id, discount_rate, free_id, reverses, reason, recalculation_id, created_by, created_by_name, created_at)
  select * from unnest($1::int[], $2::bigint[], $3::text[], $4::bigint[], $5::date[], $6::text[], $7::text[],
  $8::bigint[], $9::text[], $10::text[], $11::bigint[], $12::bigint[], $13::bigint[], $14::bigint[], $15::bigint[],
  $16::text[], $17::bigint[], $18::bigint[], $19::numeric[], $20::bigint[], $21::bigint[], $22::text[],
  $23::bigint[], $24::int[], $25::text[], $26::timestamptz[])`;

type Values = Omit<ChargeLine, 'id' | 'statementId' | 'createdAt' | 'createdBy' | 'createdByName' | 'recalculationId'>;

/** Writes lines in one statement (a specimen's orders, a recalculation's changes). */
async function insertLines(tx: Queryable, lines: Values[], w: LineWrite): Promise<void> {
  if (lines.length === 0) return;
  const col = <K extends keyof Values>(k: K) => lines.map((l) => l[k]);
  await tx.query(INSERT, [
    col('orgId'),
    col('specimenId'),
    col('barcode'),
    col('hospitalId'),
    col('serviceDate'),
    col('kind'),
    col('unit'),
    col('refId'),
    col('code'),
    col('name'),
    col('listCents'),
    col('priceCents'),
    col('discountCents'),
    col('freeCents'),
    col('payableCents'),
    col('priceSource'),
    col('priceId'),
    col('discountId'),
    col('discountRate'),
    col('freeId'),
    col('reverses'),
    lines.map(() => w.reason),
    lines.map(() => w.recalculationId ?? null),
    lines.map(() => w.actor.id),
    lines.map(() => w.actor.userName),
    lines.map(() => w.at.toISOString()),
  ]);
}

/** New charges for units of a specimen. */
export function writeCharges(tx: Queryable, charges: NewCharge[], w: LineWrite): Promise<void> {
  return insertLines(
    tx,
    charges.map((c) => ({
      orgId: c.orgId,
      specimenId: c.specimenId,
      barcode: c.barcode,
      hospitalId: c.hospitalId,
      serviceDate: c.serviceDate,
      kind: 'charge',
      unit: c.unit.unit,
      refId: c.unit.refId,
      code: c.unit.code,
      name: c.unit.name,
      ...c.priced,
      reverses: null,
      reason: w.reason,
    })),
    w,
  );
}

/**
 * Reversing lines: each line's amounts negated, pointing at it. A line not yet on a statement is
 * reversed on its own day (the period nets out); one a statement has settled is reversed on `today`,
 * so the closed statement stays as it was sent and the credit goes on the next one.
 */
export function writeReversals(tx: Queryable, lines: ChargeLine[], w: LineWrite, today: string): Promise<void> {
  return insertLines(
    tx,
    lines.map((l) => ({
      ...l,
      serviceDate: l.statementId === null ? l.serviceDate : today,
      kind: 'reversal',
      listCents: -l.listCents,
      priceCents: -l.priceCents,
      discountCents: -l.discountCents,
      freeCents: -l.freeCents,
      payableCents: -l.payableCents,
      reverses: l.id,
      reason: w.reason,
    })),
    w,
  );
}

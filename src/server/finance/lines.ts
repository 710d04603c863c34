import type { FastifyRequest } from 'fastify';
import type { Kernel } from '../kernel/context.js';
import { callerOf, intParam } from '../kernel/http/request.js';
import { LINE_COLUMNS, type ChargeLine } from './ledger.js';
import { yuanText } from './money.js';
import { linesWorkbook } from './linesWorkbook.js';
import { totalsFrom } from './statements.js';
import { zoneOf } from '../kernel/labConfig/timeZone.js';

type Query = Record<string, string | undefined>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The conditions a query names on charge lines (hospital, period, barcode, statement, recalculation);
 * the charge-lines screen sends its filters by field name (hospitalId, serviceDateFrom/To).
 */
function conditions(orgId: number, q: Query): { where: string; params: unknown[] } {
  const params: unknown[] = [orgId];
  const parts = ['org_id = $1'];
  const add = (sql: string, value: unknown) => parts.push(sql.replace('?', `$${params.push(value)}`));
  const hospital = q.hospital ?? q.hospitalId;
  const from = (q.from ?? q.serviceDateFrom)?.slice(0, 10);
  const to = (q.to ?? q.serviceDateTo)?.slice(0, 10);
  if (hospital && /^\d+$/.test(hospital)) add('hospital_id = ?', Number(hospital));
  if (from && DAY.test(from)) add('service_date >= ?::date', from);
  if (to && DAY.test(to)) add('service_date <= ?::date', to);
  if (q.barcode) add('barcode = ?', q.barcode);
  if (q.statement && /^\d+$/.test(q.statement)) add('statement_id = ?', Number(q.statement));
  if (q.recalculation && /^\d+$/.test(q.recalculation)) add('recalculation_id = ?', Number(q.recalculation));
  return { where: parts.join(' and '), params };
}

/** Whoever reads statements reads the lines they are made of. */
const allowRead = (kernel: Kernel, request: FastifyRequest) =>
  kernel.resources.screenFor(callerOf(request), 'reconciliation', 'read');

/** A line as the API shows it: its amounts in cents (exact) and as yuan with two decimals. */
const shown = (l: ChargeLine) => ({
  ...l,
  list: yuanText(l.listCents),
  price: yuanText(l.priceCents),
  discount: yuanText(l.discountCents),
  free: yuanText(l.freeCents),
  payable: yuanText(l.payableCents),
  // createdAt is a reserved field name of the screens (the record's own); the list shows it as writtenAt.
  writtenAt: l.createdAt,
});

/** Charge lines in the order they were written, a page at a time. */
export async function listLines(kernel: Kernel, request: FastifyRequest<{ Querystring: Query }>) {
  allowRead(kernel, request);
  const { where, params } = conditions(callerOf(request).actor.orgId, request.query);
  const size = intParam(request.query.size, 100, 1000);
  const page = intParam(request.query.page, 1);
  const records = await kernel.db.query<ChargeLine>(
    `select ${LINE_COLUMNS} from charge_line where ${where} order by id limit ${size} offset ${(page - 1) * size}`,
    params,
  );
  const [count] = await kernel.db.query<{ n: number }>(
    `select count(*)::int as n from charge_line where ${where}`,
    params,
  );
  return { records: records.map(shown), total: count?.n ?? 0 };
}

/**
 * What each hospital is charged over a period, from its lines (charges and reversals together), by SQL
 * in the database: specimens charged, gross, discounts, waivers and payable, in cents and in yuan.
 */
export async function hospitalTotals(kernel: Kernel, request: FastifyRequest<{ Querystring: Query }>) {
  allowRead(kernel, request);
  const orgId = callerOf(request).actor.orgId;
  const { where, params } = conditions(orgId, request.query);
  const rows = await kernel.db.query<Record<string, string>>(
    `with per as (
       select hospital_id, specimen_id, count(*) as n, sum(price_cents) as price, sum(discount_cents) as discount,
         sum(free_cents) as free, sum(payable_cents) as payable
       from charge_line where ${where} group by hospital_id, specimen_id)
     select hospital_id::text as "hospital", sum(n)::text as "lineCount",
       count(*) filter (where price <> 0)::text as "sampleCount", sum(price)::text as "grossCents",
       sum(discount)::text as "discountCents", sum(free)::text as "freeCents", sum(payable)::text as "payableCents"
     from per group by hospital_id order by hospital_id`,
    params,
  );
  const ids = rows.map((r) => Number(r.hospital));
  const names = await kernel.records.titles(kernel.db, 'referralHospital', orgId, ids);
  return rows.map((r) => {
    const totals = totalsFrom(r);
    return {
      hospital: Number(r.hospital),
      hospitalName: names.get(Number(r.hospital)) ?? '',
      ...totals,
      gross: yuanText(totals.grossCents),
      discount: yuanText(totals.discountCents),
      free: yuanText(totals.freeCents),
      payable: yuanText(totals.payableCents),
    };
  });
}

/** Up to this many lines in one sheet: a statement or a recalculation of a large lab's month. */
const SHEET_LIMIT = 200_000;

/** The lines a query names as an .xlsx sheet, with the file name it is saved under. */
export async function exportLines(kernel: Kernel, request: FastifyRequest<{ Querystring: Query }>) {
  allowRead(kernel, request);
  const caller = callerOf(request);
  const { where, params } = conditions(caller.actor.orgId, request.query);
  const lines = await kernel.db.query<ChargeLine>(
    `select ${LINE_COLUMNS} from charge_line where ${where} order by id limit ${SHEET_LIMIT}`,
    params,
  );
  const ids = [...new Set(lines.map((l) => l.hospitalId))];
  const names = await kernel.records.titles(kernel.db, 'referralHospital', caller.actor.orgId, ids);
  const rows = lines.map((l) => ({ ...l, hospitalName: names.get(l.hospitalId) ?? '' }));
  const fileName = `${caller.locale === 'zh-CN' ? '收费明细' : 'Charge lines'}.xlsx`;
  return { buffer: await linesWorkbook(rows, caller.locale, zoneOf(kernel, caller.actor)), fileName };
}

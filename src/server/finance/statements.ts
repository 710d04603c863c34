import type { Kernel } from '../kernel/context.js';
import type { Queryable } from '../kernel/db/database.js';
import type { HookRegistration } from '../kernel/resources/hooks.js';
import { today } from './charges.js';
import { FINANCE_MESSAGES as M, say } from './messages.js';
import { cents, yuanText, yuanValue } from './money.js';

/** A hospital's figures over a set of charge lines, in cents. */
export interface Totals {
  lineCount: number;
  sampleCount: number;
  grossCents: number;
  discountCents: number;
  freeCents: number;
  payableCents: number;
}

/**
 * The sums of lines, by SQL in the database: specimens are those whose lines on it do not net to
 * nothing (a specimen cancelled within the period is not one), money in integer cents.
 */
export async function totalsOf(tx: Queryable, where: string, params: unknown[]): Promise<Totals> {
  const [row] = await tx.query<Record<string, string | null>>(
    `with l as (select specimen_id, price_cents, discount_cents, free_cents, payable_cents from charge_line where ${where})
     select count(*)::text as "lineCount",
       (select count(*) from (select specimen_id from l group by specimen_id having sum(price_cents) <> 0) s)::text as "sampleCount",
       coalesce(sum(price_cents), 0)::text as "grossCents", coalesce(sum(discount_cents), 0)::text as "discountCents",
       coalesce(sum(free_cents), 0)::text as "freeCents", coalesce(sum(payable_cents), 0)::text as "payableCents"
     from l`,
    params,
  );
  return totalsFrom(row);
}

/** Totals from a row of sums that SQL gave as text (bigint sums), whichever query made them. */
export function totalsFrom(row: Record<string, string | null> | undefined): Totals {
  const n = (k: keyof Totals) => Number(row?.[k] ?? 0);
  return {
    lineCount: n('lineCount'),
    sampleCount: n('sampleCount'),
    grossCents: n('grossCents'),
    discountCents: n('discountCents'),
    freeCents: n('freeCents'),
    payableCents: n('payableCents'),
  };
}

/** Unsettled lines of a hospital registered in a period: what a new statement takes. */
const UNSETTLED = `org_id = $1 and hospital_id = $2 and service_date between $3::date and $4::date and statement_id is null`;

/** The statement's figures as its screen stores them (yuan). */
const statementFigures = (t: Totals) => ({
  lineCount: t.lineCount,
  sampleCount: t.sampleCount,
  grossAmount: yuanValue(t.grossCents),
  discountAmount: yuanValue(t.discountCents + t.freeCents),
  payableAmount: yuanValue(t.payableCents),
});

/**
 * A statement is computed, never typed: creating one takes the hospital's unsettled lines of the
 * period (locked, so a line is on one statement only), stores their sums and marks them settled by it.
 * Its figures stay as issued; a draft may be deleted, which releases its lines.
 */
export const statementFromLines: HookRegistration = {
  resource: 'reconciliation',
  order: 50,
  hooks: {
    async beforeWrite({ tx, actor, locale, current }, data) {
      if (current) return data;
      const params = [actor.orgId, Number(data.hospital), String(data.periodFrom), String(data.periodTo)];
      await tx.query(`select id from charge_line where ${UNSETTLED} for update`, params);
      const totals = await totalsOf(tx, UNSETTLED, params);
      if (totals.lineCount === 0) say(locale, M.noLines, { from: params[2] as string, to: params[3] as string });
      return { ...data, ...statementFigures(totals), writtenOffAmount: 0 };
    },
    async afterWrite({ tx, current }, row) {
      if (current) return;
      const d = row.data;
      await tx.query(`update charge_line set statement_id = $5 where ${UNSETTLED}`, [
        row.orgId,
        Number(d.hospital),
        String(d.periodFrom),
        String(d.periodTo),
        row.id,
      ]);
    },
    async beforeDelete({ tx, locale, current }) {
      if (current.data.status !== 'draft') say(locale, M.statementClosed);
      await tx.query(`update charge_line set statement_id = null where statement_id = $1`, [current.id]);
    },
  },
};

/** What the statement's lines (or one specimen's lines on it) come to, in cents. */
async function payableOn(tx: Queryable, statementId: number, barcode?: string) {
  const t = await totalsOf(
    tx,
    barcode ? 'statement_id = $1 and barcode = $2' : 'statement_id = $1',
    barcode ? [statementId, barcode] : [statementId],
  );
  return t;
}

/** The write-offs of a statement other than one (being edited or deleted), in cents. */
async function writtenOff(
  kernel: Kernel,
  tx: Queryable,
  orgId: number,
  statementId: number,
  except = 0,
  barcode?: string,
) {
  const rows = await kernel.records.find(tx, 'financeWriteOff', orgId, { statement: statementId });
  return rows
    .filter((r) => r.id !== except && (barcode === undefined || r.data.barcode === barcode))
    .reduce((sum, r) => sum + (cents(r.data.amount) ?? 0), 0);
}

/** Keeps the statement's written-off total equal to its write-offs. */
async function restate(kernel: Kernel, tx: Queryable, orgId: number, statementId: number, userId: number, except = 0) {
  const statement = await kernel.records.get(tx, 'reconciliation', orgId, statementId);
  if (!statement) return;
  const total = await writtenOff(kernel, tx, orgId, statementId, except);
  await kernel.records.update(
    tx,
    'reconciliation',
    statement,
    { ...statement.data, writtenOffAmount: yuanValue(total) },
    userId,
  );
}

/**
 * A write-off settles part of a statement: it is refused when it would take off more than the
 * statement still owes (payable − received − other write-offs), or, naming a specimen, more than that
 * specimen's lines on the statement less its other write-offs. The hospital and day are the server's.
 */
export const writeOffLimits: HookRegistration = {
  resource: 'financeWriteOff',
  order: 50,
  hooks: {
    async beforeWrite({ tx, kernel, actor, locale, current }, data) {
      const statementId = Number(data.statement);
      // One write-off of a statement at a time: the check and the write see the same figures.
      const statement = await kernel.records.lock(tx, 'reconciliation', actor.orgId, statementId);
      if (!statement) return data;
      const amount = cents(data.amount) ?? 0;
      const except = current?.id ?? 0;
      const s = statement.data;
      const owed =
        (cents(s.payableAmount) ?? 0) -
        (cents(s.receivedAmount) ?? 0) -
        (await writtenOff(kernel, tx, actor.orgId, statementId, except));
      if (amount > owed)
        say(locale, M.overStatement, { amount: yuanText(amount), owed: yuanText(Math.max(owed, 0)) }, 'amount');
      const barcode = typeof data.barcode === 'string' && data.barcode !== '' ? data.barcode : undefined;
      if (barcode) {
        const lines = await payableOn(tx, statementId, barcode);
        if (lines.lineCount === 0) say(locale, M.notOnStatement, { barcode }, 'barcode');
        const left = lines.payableCents - (await writtenOff(kernel, tx, actor.orgId, statementId, except, barcode));
        if (amount > left)
          say(
            locale,
            M.overSpecimen,
            { amount: yuanText(amount), owed: yuanText(Math.max(left, 0)), barcode },
            'amount',
          );
      }
      return {
        ...data,
        hospital: s.hospital,
        writtenOffOn: current?.data.writtenOffOn ?? (await today(kernel, tx, actor.orgId)),
      };
    },
    async afterWrite({ tx, kernel, actor, current }, row) {
      await restate(kernel, tx, row.orgId, Number(row.data.statement), actor.id);
      const before = Number(current?.data.statement);
      if (before && before !== Number(row.data.statement)) await restate(kernel, tx, row.orgId, before, actor.id);
    },
    async beforeDelete({ tx, kernel, actor, current }) {
      await restate(kernel, tx, current.orgId, Number(current.data.statement), actor.id, current.id);
    },
  },
};

/** The amount a settlement audit settles is the statement's payable, never typed. */
export const auditAmount: HookRegistration = {
  resource: 'settlementAudit',
  order: 50,
  hooks: {
    async beforeWrite({ tx, kernel, actor }, data) {
      const statement = await kernel.records.get(tx, 'reconciliation', actor.orgId, Number(data.statement));
      return statement ? { ...data, amount: statement.data.payableAmount } : data;
    },
  },
};

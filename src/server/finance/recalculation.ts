import type { FastifyRequest } from 'fastify';
import type { Kernel } from '../kernel/context.js';
import type { Queryable } from '../kernel/db/database.js';
import { callerOf } from '../kernel/http/request.js';
import type { HookRegistration } from '../kernel/resources/hooks.js';
import { notFound } from '../kernel/http/envelope.js';
import { LINE_COLUMNS, OPEN, type ChargeLine } from './ledger.js';
import { FINANCE_MESSAGES as M, say } from './messages.js';
import { yuanValue } from './money.js';
import { reprice } from './reprice.js';

/** A recalculation names a code billed or none (every code); its name is the catalogue's. */
export const recalculationRequest: HookRegistration = {
  resource: 'priceRecalculation',
  order: 50,
  hooks: {
    async beforeWrite({ tx, kernel, actor, locale }, data) {
      const code = typeof data.itemCode === 'string' ? data.itemCode.trim() : '';
      if (!code) return { ...data, itemName: null };
      const [unit] = [
        ...(await kernel.records.find(tx, 'inspectionPurpose', actor.orgId, { code })),
        ...(await kernel.records.find(tx, 'inspectionItem', actor.orgId, { code })),
      ];
      if (!unit) say(locale, M.unknownCode, { code }, 'itemCode');
      return { ...data, itemName: unit.data.name };
    },
  },
};

/** The unsettled open lines a recalculation looks at again: its period, and its hospital and code if named. */
async function linesOf(
  tx: Queryable,
  orgId: number,
  r: { periodFrom?: unknown; periodTo?: unknown; hospital?: unknown; itemCode?: unknown },
): Promise<ChargeLine[]> {
  const params: unknown[] = [orgId, r.periodFrom, r.periodTo];
  let where = `org_id = $1 and service_date between $2::date and $3::date and statement_id is null and ${OPEN}`;
  if (typeof r.hospital === 'number') where += ` and hospital_id = $${params.push(r.hospital)}`;
  if (typeof r.itemCode === 'string' && r.itemCode) where += ` and code = $${params.push(r.itemCode)}`;
  return tx.query<ChargeLine>(`select ${LINE_COLUMNS} from charge_line where ${where} order by id for update`, params);
}

/**
 * Runs a pending recalculation: every unsettled line of its period is priced again with today's price
 * list and discounts; each that changed is reversed and charged again, both lines marked with this
 * request; the request's counts and amounts (before, after, difference) are computed from those lines
 * and it moves to done, stamped with who ran it and when. All in one transaction.
 */
export async function runRecalculation(kernel: Kernel, request: FastifyRequest<{ Params: { id: string } }>) {
  const caller = callerOf(request);
  // Running it is an edit of the request: the screen's update permission decides.
  kernel.resources.screenFor(caller, 'priceRecalculation', 'update');
  const id = Number(request.params.id) || 0;
  const orgId = caller.actor.orgId;
  return kernel.db.transaction(async (tx) => {
    const record = await kernel.records.lock(tx, 'priceRecalculation', orgId, id);
    if (!record) throw notFound();
    // A request already run or cancelled is refused by the transition below; nothing is repriced twice.
    const lines = record.data.status === 'pending' ? await linesOf(tx, orgId, record.data) : [];
    const changes = await reprice(
      kernel,
      tx,
      orgId,
      lines,
      { actor: caller.actor, at: kernel.now(), reason: 'recalculated', recalculationId: id },
      'all',
    );
    const before = changes.reduce((s, c) => s + c.before.payableCents, 0);
    const after = changes.reduce((s, c) => s + c.after.payableCents, 0);
    return kernel.resources.transition(caller, 'priceRecalculation', id, 'run', {
      system: true,
      tx,
      set: {
        affectedRecords: changes.length,
        affectedSpecimens: new Set(changes.map((c) => c.before.specimenId)).size,
        checkedRecords: lines.length,
        oldAmount: yuanValue(before),
        newAmount: yuanValue(after),
        difference: yuanValue(after - before),
      },
    });
  });
}

import type { HookRegistration } from '../kernel/resources/hooks.js';
import { LINE_COLUMNS, OPEN, type ChargeLine } from './ledger.js';
import { FINANCE_MESSAGES as M, say } from './messages.js';
import { yuanValue } from './money.js';
import { covers } from './pricing.js';
import { reprice } from './reprice.js';

/**
 * A free-of-charge waiver names a specimen (its barcode) and what of it is not charged. The hospital
 * and the amount waived come from the specimen's charge lines, never typed; approving or rejecting it
 * (its lifecycle) reprices the specimen's unsettled lines at once, so settlement leaves them out.
 */
export const waiverCharges: HookRegistration = {
  resource: 'freeOfCharge',
  order: 50,
  hooks: {
    async beforeWrite({ tx, kernel, actor, locale }, data) {
      const barcode = String(data.barcode ?? '');
      const [specimen] = await kernel.records.find(tx, 'specimen', actor.orgId, { barcode });
      if (!specimen) say(locale, M.noSpecimen, { barcode }, 'barcode');
      const lines = await tx.query<ChargeLine>(
        `select ${LINE_COLUMNS} from charge_line where org_id = $1 and specimen_id = $2 and ${OPEN}`,
        [actor.orgId, specimen.id],
      );
      const waiver = { id: 0, data };
      const covered = lines.filter((l) => covers(waiver, l));
      if (covered.length === 0)
        say(locale, M.nothingCovered, { barcode, names: String(data.itemNames ?? '') }, 'itemNames');
      const amount = covered.reduce((sum, l) => sum + l.priceCents - l.discountCents, 0);
      return {
        ...data,
        hospital: specimen.data.hospital,
        patientName: specimen.data.patientName,
        amount: yuanValue(amount),
      };
    },
    async afterWrite({ tx, kernel, actor, current }, row) {
      const was = current?.data.approvalStatus === 'approved';
      const is = row.data.approvalStatus === 'approved';
      if (was === is) return;
      const [specimen] = await kernel.records.find(tx, 'specimen', row.orgId, { barcode: String(row.data.barcode) });
      if (!specimen) return;
      const lines = await tx.query<ChargeLine>(
        `select ${LINE_COLUMNS} from charge_line
         where org_id = $1 and specimen_id = $2 and statement_id is null and ${OPEN} order by id`,
        [row.orgId, specimen.id],
      );
      await reprice(kernel, tx, row.orgId, lines, { actor, at: kernel.now(), reason: 'waiverChanged' }, 'waiver');
    },
    async beforeDelete({ locale, current }) {
      if (current.data.approvalStatus === 'approved') say(locale, M.approvedWaiver);
    },
  },
};

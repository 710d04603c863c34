import type { HookRegistration } from '../kernel/resources/hooks.js';
import { refuse } from '../kernel/resources/commands.js';
import { markUsed, MESSAGES, specimenBarcode } from './issued.js';

/**
 * Barcodes are issued, never typed (domain: "Specimen lifecycle"): a new specimen takes the next number
 * of the lab's tube rule, or a pre-printed barcode the lab issued and no specimen used; once stored,
 * its barcode does not change. On every write path of the specimen (any entry screen, import).
 */
export const specimenBarcodes: HookRegistration = {
  resource: 'specimen',
  order: 20,
  hooks: {
    async beforeWrite({ tx, kernel, actor, locale, current }, data) {
      const given = typeof data.barcode === 'string' ? data.barcode.trim() : '';
      if (current) {
        if (given && given !== current.data.barcode) refuse(locale, MESSAGES.changed, 'barcode');
        return { ...data, barcode: current.data.barcode };
      }
      return { ...data, barcode: await specimenBarcode(kernel, tx, actor, given, locale) };
    },
    async afterWrite({ tx, kernel, current }, row) {
      if (!current) await markUsed(tx, row.orgId, String(row.data.barcode), row.id, kernel.now());
    },
  },
};

import { t, type Locale } from '../../shared/i18n/messages.js';
import type { RecordValues } from '../../shared/screens/predicate.js';
import type { AppContext } from '../kernel/context.js';
import type { Queryable } from '../kernel/db/database.js';
import { InvalidRecord } from '../kernel/http/envelope.js';
import type { ResourceHooks } from '../kernel/resources/hooks.js';
import type { StoredRecord } from '../kernel/resources/repository.js';
import { barcodeProblem, splitBarcodes } from './barcodes.js';
import { deleteLines, isOpen, LINE, nextHandoverNo, openHolders, screenNamed, stamp, syncLines } from './store.js';

/** A received handover is the lab's record of custody: it stays as confirmed. */
export function refuseClosed(record: StoredRecord, locale: Locale): void {
  if (!isOpen(record))
    throw new InvalidRecord([
      { field: '', message: t('handover.closed', locale, { handoverNo: String(record.data.handoverNo ?? record.id) }) },
    ]);
}

/**
 * The barcodes of a handover, checked: well formed, each once, and none on another open handover
 * (domain: a specimen is never in two open handovers). The refusal names the barcode and the handover.
 */
export async function checkedBarcodes(
  tx: Queryable,
  orgId: number,
  text: unknown,
  exceptId: number,
  locale: Locale,
): Promise<string[]> {
  const barcodes = splitBarcodes(text);
  const problem = barcodeProblem(barcodes, locale);
  if (problem) throw new InvalidRecord([{ field: 'barcodes', message: problem }]);
  const holders = await openHolders(tx, orgId, barcodes, exceptId);
  if (holders.length > 0) {
    const message = holders
      .slice(0, 3)
      .map((h) => t('handover.specimenOpen', locale, h))
      .join('；');
    throw new InvalidRecord([{ field: 'barcodes', message }]);
  }
  return barcodes;
}

/**
 * The rules of a handover on every generic write of handoverRecord (create, edit, delete): a
 * received one is closed; the barcodes decide the specimen count and the lines; the server keeps the
 * status, who created it and the receipt; an empty number gets the next one of the day.
 */
export function handoverHooks(ctx: AppContext): ResourceHooks {
  return {
    async beforeWrite({ tx, actor, locale, current }, data): Promise<RecordValues> {
      if (current) refuseClosed(current, locale);
      const barcodes = await checkedBarcodes(tx, actor.orgId, data.barcodes, current?.id ?? 0, locale);
      const now = ctx.now();
      return {
        ...data,
        handoverNo: data.handoverNo || (await nextHandoverNo(tx, actor.orgId, now)),
        barcodes: barcodes.join('\n'),
        specimenCount: barcodes.length,
        status: current?.data.status ?? 'open',
        handedBy: data.handedBy || actor.userName,
        handedByAccount: current?.data.handedByAccount ?? actor.userAccount,
        handedAt: data.handedAt || stamp(now),
      };
    },
    async afterWrite({ tx, actor }, row) {
      await syncLines(tx, screenNamed(ctx, LINE), row, splitBarcodes(row.data.barcodes), actor.id);
    },
    async beforeDelete({ tx, locale, current }) {
      refuseClosed(current, locale);
      await deleteLines(tx, current.orgId, current.id);
    },
  };
}

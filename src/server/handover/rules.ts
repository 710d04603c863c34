import { t, type Locale } from '../../shared/i18n/messages.js';
import type { RecordValues } from '../../shared/screens/predicate.js';
import type { Queryable } from '../kernel/db/database.js';
import { InvalidRecord } from '../kernel/http/envelope.js';
import type { HookRegistration } from '../kernel/resources/hooks.js';
import type { RecordStore } from '../kernel/resources/store.js';
import type { AnyStored } from '../kernel/resources/records.js';
import { barcodeProblem, splitBarcodes } from './barcodes.js';
import { moveSpecimens, refuseUnsendable } from './specimens.js';
import { deleteLines, HANDOVER, isOpen, nextHandoverNo, openHolders, stamp, syncLines } from './store.js';
import { zoneOf } from '../kernel/labConfig/timeZone.js';

/** A received handover is the lab's record of custody: it stays as confirmed. */
export function refuseClosed(record: AnyStored, locale: Locale): void {
  if (!isOpen(record))
    throw new InvalidRecord([
      {
        field: '',
        message: t('handover.closed', locale, {
          handoverNo: String((record.data as { handoverNo?: unknown }).handoverNo ?? record.id),
        }),
      },
    ]);
}

/**
 * The barcodes of a handover, checked: well formed, each once, and none on another open handover
 * (domain: a specimen is never in two open handovers). The refusal names the barcode and the handover.
 */
export async function checkedBarcodes(
  records: RecordStore,
  tx: Queryable,
  orgId: number,
  text: unknown,
  exceptId: number,
  locale: Locale,
): Promise<string[]> {
  const barcodes = splitBarcodes(text);
  const problem = barcodeProblem(barcodes, locale);
  if (problem) throw new InvalidRecord([{ field: 'barcodes', message: problem }]);
  const holders = await openHolders(records, tx, orgId, barcodes, exceptId);
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
 * The rules of a handover on every generic write of handoverRecord (create, edit, import, delete): a
 * received one is closed; the barcodes decide the specimen count and the lines; the server keeps the
 * status, who created it and the receipt; an empty number gets the next one of the day.
 */
export const handoverRules: HookRegistration = {
  resource: HANDOVER,
  hooks: {
    async beforeWrite({ tx, kernel, actor, locale, current }, data): Promise<RecordValues> {
      if (current) refuseClosed(current, locale);
      const barcodes = await checkedBarcodes(kernel.records, tx, actor.orgId, data.barcodes, current?.id ?? 0, locale);
      const before = new Set(splitBarcodes(current?.data.barcodes));
      await refuseUnsendable(
        kernel,
        tx,
        actor.orgId,
        barcodes.filter((b) => !before.has(b)),
        locale,
      );
      const now = kernel.now();
      return {
        ...data,
        handoverNo:
          data.handoverNo || (await nextHandoverNo(kernel.records, tx, actor.orgId, now, zoneOf(kernel, actor))),
        barcodes: barcodes.join('\n'),
        specimenCount: barcodes.length,
        status: current?.data.status ?? 'open',
        handedBy: data.handedBy || actor.userName,
        handedByAccount: current?.data.handedByAccount ?? actor.userAccount,
        handedAt: data.handedAt || stamp(now, zoneOf(kernel, actor)),
      };
    },
    async afterWrite({ tx, kernel, actor, locale, ip, current }, row) {
      const now = splitBarcodes(row.data.barcodes);
      const before = splitBarcodes(current?.data.barcodes);
      await syncLines(kernel.records, tx, row, now, actor.id);
      const step = { handoverNo: String(row.data.handoverNo) };
      const caller = { actor, locale, ip };
      await moveSpecimens(
        kernel,
        tx,
        caller,
        before.filter((b) => !now.includes(b)),
        'recall',
        step,
      );
      await moveSpecimens(
        kernel,
        tx,
        caller,
        now.filter((b) => !before.includes(b)),
        'send',
        step,
      );
    },
    async beforeDelete({ tx, kernel, actor, locale, ip, current }) {
      refuseClosed(current, locale);
      await deleteLines(kernel.records, tx, current.orgId, current.id);
      const step = { handoverNo: String(current.data.handoverNo) };
      await moveSpecimens(kernel, tx, { actor, locale, ip }, splitBarcodes(current.data.barcodes), 'recall', step);
    },
  },
};

import { findForLogin } from '../kernel/identity/accounts.js';
import type { HookRegistration } from '../kernel/resources/hooks.js';
import { labNow } from '../kernel/labConfig/timeZone.js';

const ALERT = {
  'zh-CN': { title: '标本拒收', message: (barcode: string, reason: string) => `标本 ${barcode} 被拒收：${reason}` },
  'en-US': {
    title: 'Specimen rejected',
    message: (barcode: string, reason: string) => `Specimen ${barcode} was rejected: ${reason}`,
  },
};

/**
 * A rejected specimen is an unqualified specimen (page 20507/20512): the rejection creates its record
 * in the same transaction, and the user who entered the specimen is alerted once it is committed.
 */
export const specimenRejection: HookRegistration = {
  resource: 'specimen',
  order: 500,
  hooks: {
    async afterWrite({ tx, kernel, actor, locale, current, afterCommit }, row) {
      if (!current || current.data.status === 'rejected' || row.data.status !== 'rejected') return;
      const specimen = row.data;
      const reasonId = typeof specimen.rejectReason === 'number' ? specimen.rejectReason : undefined;
      const reason = reasonId
        ? ((await kernel.records.titles(tx, 'abnormalSampleType', row.orgId, [reasonId])).get(reasonId) ?? '')
        : '';
      await kernel.records.insert(
        tx,
        'unqualifiedSample',
        row.orgId,
        {
          barcode: String(specimen.barcode),
          patientName: typeof specimen.patientName === 'string' ? specimen.patientName : undefined,
          hospital: specimen.hospital as number,
          abnormalType: reasonId as number,
          handling: 'reject',
          foundBy: actor.userName,
          notifiedAt: labNow(kernel, actor),
        },
        actor.id,
      );
      const account = typeof specimen.enteredByAccount === 'string' ? specimen.enteredByAccount : '';
      afterCommit(async () => {
        const submitter = account ? await findForLogin(kernel.db, account) : undefined;
        if (!submitter) return;
        const { title, message } = ALERT[locale];
        await kernel.push.pushToUsers([submitter.id], {
          type: 'warning',
          title,
          message: message(String(specimen.barcode), reason),
        });
      });
    },
  },
};

import type { HookRegistration, WriteContext } from '../kernel/resources/hooks.js';
import { requireAuthority } from './authority.js';
import { RESULT_MESSAGES, refused } from './messages.js';
import { qcHoldOf } from './qcHold.js';
import { itemOf } from './items.js';

type Data = Record<string, unknown>;

/**
 * Approving a result (first review, audit, auto-verification): by other accounts than the tester (and,
 * for the audit, than the first reviewer), with the authority for the item's group; never while its
 * critical value waits for acknowledgement, nor while the item's QC holds its results.
 */
async function checkApproval(ctx: WriteContext, data: Data): Promise<void> {
  const { tx, kernel, actor, locale, transition } = ctx;
  const item = await itemOf(kernel, tx, actor.orgId, Number(data.item));
  const about = { barcode: String(data.barcode), item: String(item?.data.name ?? '') };
  if (transition !== 'autoVerify') {
    if (data.testerAccount === actor.userAccount) refused(RESULT_MESSAGES.ownResult, locale, about);
    if (transition === 'audit' && data.reviewerAccount === actor.userAccount)
      refused(RESULT_MESSAGES.ownReview, locale, about);
    const ability = transition === 'audit' ? 'canAudit' : 'canReview';
    await requireAuthority(kernel, tx, actor, data.professionalGroup as number, ability, locale);
  }
  if (data.critical === true && !data.criticalAckAt) refused(RESULT_MESSAGES.unacknowledged, locale, about);
  const hold = await qcHoldOf(kernel, tx, actor.orgId, String(item?.data.code ?? ''), String(data.testedAt ?? ''));
  if (hold) refused(RESULT_MESSAGES.qcHold, locale, { ...about, rule: hold.violations });
}

const APPROVALS = new Set(['firstReview', 'audit', 'autoVerify']);

export const resultReview: HookRegistration = {
  resource: 'inspectionResult',
  order: 30,
  hooks: {
    async beforeWrite(ctx, data) {
      if (ctx.transition && APPROVALS.has(ctx.transition)) await checkApproval(ctx, data);
      return data;
    },
  },
};

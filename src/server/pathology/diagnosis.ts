import type { HookRegistration, WriteContext } from '../kernel/resources/hooks.js';
import type { StoredRecord } from '../kernel/resources/repository.js';
import { PATHOLOGY_MESSAGES, refused } from './messages.js';

const EDITABLE = new Set(['draft', 'amended']);

/** Moves the diagnosis's case along with it (diagnosing, signed out, amended), as the pathologist's step. */
async function moveCase(ctx: WriteContext, row: StoredRecord, name: 'diagnose' | 'signOut' | 'amend') {
  const { tx, kernel, actor, locale, ip } = ctx;
  const c = await kernel.records.get(tx, 'pathologySampling', row.orgId, row.data.case);
  if (!c) return;
  const from = { diagnose: ['sampled', 'processing'], signOut: ['diagnosing'], amend: ['signedOut'] }[name];
  if (from.includes(String(c.data.status)))
    await kernel.resources.transition({ actor, locale, ip }, 'pathologySampling', c.id, name, { tx, system: true });
}

/**
 * A case's diagnosis: written while a draft (or amended), signed by its pathologist, reviewed and signed
 * out by another; the case follows it. The pathology report is issued by the reports capability on the
 * review, the signatures being the transitions' own.
 */
export const pathologyDiagnosis: HookRegistration = {
  resource: 'pathologyDiagnosis',
  order: 40,
  hooks: {
    async beforeWrite(ctx, data) {
      const { tx, kernel, actor, locale, current, transition } = ctx;
      if (!current) {
        const c = await kernel.records.get(tx, 'pathologySampling', actor.orgId, data.case);
        if (c?.data.status === 'signedOut')
          refused(PATHOLOGY_MESSAGES.caseSignedOut, locale, { pathologyNo: String(c.data.pathologyNo) });
        return data;
      }
      if (!transition && !EDITABLE.has(String(current.data.status)))
        refused(PATHOLOGY_MESSAGES.diagnosisLocked, locale);
      if (transition === 'review' && current.data.diagnosedByAccount === actor.userAccount)
        refused(PATHOLOGY_MESSAGES.ownDiagnosis, locale);
      return { ...data, case: current.data.case };
    },
    async afterWrite(ctx, row) {
      if (!ctx.current) await moveCase(ctx, row, 'diagnose');
      if (ctx.transition === 'review') await moveCase(ctx, row, 'signOut');
      if (ctx.transition === 'amend') await moveCase(ctx, row, 'amend');
    },
  },
};

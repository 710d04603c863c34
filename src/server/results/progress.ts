import type { Queryable } from '../kernel/db/database.js';
import type { Kernel } from '../kernel/context.js';
import type { Caller } from '../kernel/identity/actor.js';
import type { HookRegistration } from '../kernel/resources/hooks.js';

/**
 * The specimen follows its results: the first result entered puts a received specimen in testing; the
 * last one approved makes it reviewed (which the reports capability turns into its report). Both in
 * the result's transaction, through the specimen's own transitions.
 */
async function moveSpecimen(
  kernel: Kernel,
  tx: Queryable,
  caller: Caller,
  barcode: string,
  from: string,
  step: string,
) {
  const [specimen] = await kernel.records.find(tx, 'specimen', caller.actor.orgId, { barcode: [barcode] });
  if (!specimen || specimen.data.status !== from) return;
  await kernel.resources.transition(caller, 'specimen', specimen.id, step, { tx, system: true });
}

export const specimenProgress: HookRegistration = {
  resource: 'inspectionResult',
  order: 800,
  hooks: {
    async afterWrite({ tx, kernel, actor, locale, ip, transition }, row) {
      const caller = { actor, locale, ip };
      const barcode = String(row.data.barcode);
      if (transition === 'record') await moveSpecimen(kernel, tx, caller, barcode, 'received', 'startTesting');
      if (transition !== 'audit' && transition !== 'autoVerify') return;
      const results = await kernel.records.find(tx, 'inspectionResult', row.orgId, { barcode: [barcode] });
      if (results.every((r) => r.data.status === 'audited'))
        await moveSpecimen(kernel, tx, caller, barcode, 'inTesting', 'review');
    },
  },
};

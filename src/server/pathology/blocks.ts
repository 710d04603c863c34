import type { HookRegistration } from '../kernel/resources/hooks.js';

/**
 * Blocks and slides: embedding a block puts its case into processing; sectioning a block (again for a
 * recut or IHC) cuts the slides asked for, each with the next label of the block (…-A3-1, -A3-2).
 * Outside its steps only the remark can be written: who did a step, and the grade, come from the steps.
 */
export const blocksAndSlides: HookRegistration = {
  resource: 'pathologyOperation',
  order: 40,
  hooks: {
    async beforeWrite({ current, transition }, data) {
      return current && !transition ? { ...current.data, remark: data.remark ?? null } : data;
    },
    async afterWrite({ tx, kernel, actor, locale, ip, transition }, row) {
      const caller = { actor, locale, ip };
      const block = row.data;
      if (transition === 'embed') {
        const c = await kernel.records.get(tx, 'pathologySampling', row.orgId, block.case);
        if (c?.data.status === 'sampled')
          await kernel.resources.transition(caller, 'pathologySampling', c.id, 'process', { tx, system: true });
      }
      if (transition !== 'section') return;
      const label = String(block.labelNo);
      const cut = await kernel.records.find(tx, 'pathologyOperation', row.orgId, { block: [label] });
      for (let n = 1; n <= Number(block.slideCount); n++) {
        const slide = { case: block.case, block: label, kind: 'slide', status: 'cut' };
        const labelNo = `${label}-${cut.length + n}`;
        await kernel.resources.createFor(
          caller,
          'pathologyOperation',
          { ...slide, labelNo, operation: block.operation, stain: block.stain },
          tx,
        );
      }
    },
  },
};

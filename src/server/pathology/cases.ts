import type { PathologySamplingRecord } from '../../shared/generated/resources.js';
import { fieldByKey, optionLabel } from '../../shared/screens/fields.js';
import type { HookRegistration, WriteContext } from '../kernel/resources/hooks.js';
import type { RecordValues } from '../../shared/screens/predicate.js';
import { PATHOLOGY_MESSAGES, refused } from './messages.js';

const SEX = { male: 'M', female: 'F', unknown: 'U' } as const;
/** Specimen states a case can be grossed from: received by the lab, or already in its testing. */
const GROSSABLE = new Set(['received', 'inTesting']);

/** The received specimen a new case is grossed from; its patient becomes the case's. */
async function specimenOf(ctx: WriteContext, barcode: string) {
  const { tx, kernel, actor, locale } = ctx;
  const [specimen] = await kernel.records.find(tx, 'specimen', actor.orgId, { barcode: [barcode] });
  if (!specimen) refused(PATHOLOGY_MESSAGES.noSpecimen, locale, { barcode });
  const state = String(specimen.data.status ?? '');
  if (!GROSSABLE.has(state)) {
    const status = fieldByKey(kernel.screens.owner('specimen')!, 'status');
    refused(PATHOLOGY_MESSAGES.notReceived, locale, { barcode, state: optionLabel(status, state, locale) ?? state });
  }
  const [existing] = await kernel.records.find(tx, 'pathologySampling', actor.orgId, { barcode: [barcode] });
  if (existing)
    refused(PATHOLOGY_MESSAGES.caseExists, locale, { barcode, pathologyNo: String(existing.data.pathologyNo) });
  return specimen;
}

/**
 * A pathology case is grossed from a received specimen: the patient comes from the specimen, the
 * blocks taken are made with their labels (病理号-A1 …), and the specimen enters testing. The grossing
 * record can be corrected only until the case goes on to processing.
 */
export const pathologyCases: HookRegistration = {
  resource: 'pathologySampling',
  order: 40,
  hooks: {
    async beforeWrite(ctx, data): Promise<RecordValues> {
      const { current, locale } = ctx;
      if (current) {
        if (!ctx.transition && current.data.status !== 'sampled')
          refused(PATHOLOGY_MESSAGES.grossingClosed, locale, { pathologyNo: String(current.data.pathologyNo) });
        return data;
      }
      const specimen = await specimenOf(ctx, String(data.barcode ?? ''));
      const s = specimen.data;
      return { ...data, patientName: s.patientName, sex: s.sex ? SEX[s.sex] : 'U', age: s.age ?? null };
    },
    async afterWrite(ctx, row) {
      if (ctx.current) return;
      const { tx, kernel, actor, locale, ip } = ctx;
      const c = row.data as unknown as PathologySamplingRecord;
      const caller = { actor, locale, ip };
      for (let n = 1; n <= Number(c.blockCount); n++)
        await kernel.resources.createFor(
          caller,
          'pathologyOperation',
          { case: row.id, labelNo: `${c.pathologyNo}-A${n}`, kind: 'block', operation: null },
          tx,
        );
      const [specimen] = await kernel.records.find(tx, 'specimen', actor.orgId, { barcode: [String(c.barcode)] });
      if (specimen?.data.status === 'received')
        await kernel.resources.transition(caller, 'specimen', specimen.id, 'startTesting', {
          tx,
          system: true,
          details: { pathologyNo: c.pathologyNo },
        });
    },
  },
};

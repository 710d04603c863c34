import type { SpecimenRecord } from '../../shared/generated/resources.js';
import { appendLog } from '../kernel/audit/log.js';
import type { HookRegistration } from '../kernel/resources/hooks.js';

const PATHOLOGY_CATEGORIES = new Set([3, 4]);

/**
 * A received specimen gets a pending result for every item its purposes order (each in the group that
 * tests the item), so the groups' work lists and worksheets show what is to be done. Items already
 * there (a specimen received again after a recall) are not repeated.
 */
export const orderedResults: HookRegistration = {
  resource: 'specimen',
  order: 700,
  hooks: {
    async afterWrite({ tx, kernel, actor, ip, current }, row) {
      if (row.data.status !== 'received' || current?.data.status === 'received') return;
      const s = row.data as unknown as SpecimenRecord;
      const purposeIds = (Array.isArray(s.purposes) ? s.purposes : []).map(Number);
      // Histo- and cytopathology (categories 3, 4) are answered by the pathology case, not a worksheet's result.
      const purposes = (await kernel.records.byIds(tx, 'inspectionPurpose', row.orgId, purposeIds)).filter(
        (p) => !PATHOLOGY_CATEGORIES.has(Number(p.data.category)),
      );
      const itemIds = [...new Set(purposes.flatMap((p) => (Array.isArray(p.data.items) ? p.data.items : [])))];
      const items = await kernel.records.byIds(tx, 'inspectionItem', row.orgId, itemIds);
      const barcode = String(s.barcode);
      const existing = await kernel.records.find(tx, 'inspectionResult', row.orgId, { barcode: [barcode] });
      const have = new Set(existing.map((r) => r.data.item));
      for (const item of items.filter((i) => !have.has(i.id))) {
        const result = await kernel.records.insert(
          tx,
          'inspectionResult',
          row.orgId,
          {
            barcode,
            patientName: s.patientName,
            sex: s.sex,
            age: s.age,
            item: item.id,
            professionalGroup: item.data.professionalGroup,
            unit: item.data.unit,
            status: 'pending',
          },
          actor.id,
        );
        await appendLog(tx, actor, {
          resource: 'inspectionResult',
          recordId: result.id,
          action: 'create',
          after: result.data,
          ip,
        });
      }
    },
  },
};

/**
 * A specimen refused after its receipt (haemolysed at the bench) takes its results with it: each not
 * yet reported is cancelled in the rejection's step, so the groups' worksheets and work lists no longer
 * show tubes nobody will test.
 */
export const resultsOfRejected: HookRegistration = {
  resource: 'specimen',
  order: 710,
  hooks: {
    async afterWrite({ tx, kernel, actor, locale, ip, transition }, row) {
      if (transition !== 'reject') return;
      // The results the lifecycle lets be cancelled: those not yet reported.
      const cancel = kernel.screens
        .owner('inspectionResult')
        ?.resource.lifecycle?.transitions.find((t) => t.name === 'cancel');
      if (!cancel) return;
      const open = await kernel.records.find(tx, 'inspectionResult', row.orgId, {
        barcode: [String(row.data.barcode)],
        status: cancel.from,
      });
      if (open.length > 0)
        await kernel.resources.transitionMany(
          { actor, locale, ip },
          'inspectionResult',
          open.map((r) => r.id),
          'cancel',
          { tx, system: true },
        );
    },
  },
};

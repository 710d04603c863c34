import type { IsolateRecord } from '../../shared/generated/resources.js';
import { optionLabel } from '../../shared/screens/fields.js';
import type { RecordValues } from '../../shared/screens/predicate.js';
import type { HookRegistration, WriteContext } from '../kernel/resources/hooks.js';
import type { StoredRecord } from '../kernel/resources/repository.js';
import { MICRO_MESSAGES, refused } from './messages.js';

/**
 * An isolate of a specimen: the specimen's barcode and patient taken from it, numbered 1, 2, … within
 * the specimen, and a panel only of the organism's group.
 */
async function checkIsolate(ctx: WriteContext, data: RecordValues): Promise<RecordValues> {
  const { tx, kernel, actor, locale, current } = ctx;
  const specimen = await kernel.records.get(tx, 'specimen', actor.orgId, data.specimen);
  const barcode = String(specimen?.data.barcode ?? '');
  let { isolateNo, isolateCode } = (current?.data ?? {}) as Partial<IsolateRecord>;
  if (!current) {
    // Under the resource's write lock (the generic create holds it): two isolates never take one number.
    const siblings = await kernel.records.find(tx, 'isolate', actor.orgId, { specimen: Number(data.specimen) });
    isolateNo = Math.max(0, ...siblings.map((s) => Number(s.data.isolateNo ?? 0))) + 1;
    isolateCode = `${barcode}-${isolateNo}`;
  }
  if (data.panel && data.panel !== current?.data.panel) {
    const panel = await kernel.records.get(tx, 'antibioticCombination', actor.orgId, data.panel);
    const species = await kernel.records.get(tx, 'bacterialSpecies', actor.orgId, data.species);
    const name = String(panel?.data.name ?? '');
    if (panel?.data.enabled === false) refused(MICRO_MESSAGES.panelDisabled, locale, { panel: name }, 'panel');
    if (panel && species && panel.data.organismGroup !== species.data.organismGroup) {
      const groupField = kernel.screens.owner('antibioticCombination')?.fields.find((f) => f.key === 'organismGroup');
      refused(
        MICRO_MESSAGES.panelGroup,
        locale,
        {
          panel: name,
          panelGroup: optionLabel(groupField, panel.data.organismGroup, locale) ?? String(panel.data.organismGroup),
          organism: String(species.data.name),
        },
        'panel',
      );
    }
  }
  return {
    ...data,
    barcode,
    patientName: specimen?.data.patientName ?? null,
    isolateNo: isolateNo ?? null,
    isolateCode: isolateCode ?? null,
  };
}

/**
 * What follows from a saved isolate, through the susceptibility results' own rules: a panel chosen adds
 * one row per antibiotic of it not yet on the isolate (the panel's method, waiting for its reading);
 * another organism re-reads the isolate's results with its breakpoints (refused, all of it, when one
 * has none).
 */
async function followIsolate(ctx: WriteContext, row: StoredRecord): Promise<void> {
  const { tx, kernel, actor, locale, ip, current } = ctx;
  const caller = { actor, locale, ip };
  const reach = { tx };
  const results = await kernel.records.find(tx, 'susceptibilityResult', actor.orgId, { isolate: row.id });
  if (current && current.data.species !== row.data.species)
    for (const result of results)
      await kernel.resources.update(caller, 'susceptibilityResult', result.id, { version: result.version }, reach);
  const panelId = row.data.panel;
  if (!panelId || panelId === current?.data.panel) return;
  const panel = await kernel.records.get(tx, 'antibioticCombination', actor.orgId, panelId);
  if (!panel) return;
  const method = panel.data.method;
  const present = new Set(results.filter((r) => r.data.method === method).map((r) => r.data.antibiotic));
  for (const antibiotic of panel.data.antibiotics ?? [])
    if (!present.has(antibiotic))
      await kernel.resources.create(caller, 'susceptibilityResult', { isolate: row.id, antibiotic, method }, reach);
}

export const isolateRules: HookRegistration = {
  resource: 'isolate',
  order: 20,
  hooks: {
    beforeWrite: (ctx, data) => checkIsolate(ctx, data),
    afterWrite: (ctx, row) => followIsolate(ctx, row),
    async beforeDelete({ tx, kernel, actor, locale, current }) {
      const results = await kernel.records.find(tx, 'susceptibilityResult', actor.orgId, { isolate: current.id });
      if (results.length > 0)
        refused(MICRO_MESSAGES.isolateHasResults, locale, { isolate: String(current.data.isolateCode ?? '') });
    },
  },
};

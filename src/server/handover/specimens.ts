import { t, type Locale } from '../../shared/i18n/messages.js';
import { optionLabel } from '../../shared/screens/fields.js';
import type { Kernel } from '../kernel/context.js';
import type { Queryable } from '../kernel/db/database.js';
import { InvalidRecord } from '../kernel/http/envelope.js';
import type { Caller } from '../kernel/identity/actor.js';

/**
 * A handover moves specimens (domain: "Handover"): those on a slip are in transit, a receipt makes
 * them received by the receiving group, a missing one is marked missing. Every move is a transition
 * of the one specimen record, run for the user doing the handover step, so it is in the specimen's
 * history like any other.
 */
const SPECIMEN = 'specimen' as const;

/** The specimens of some barcodes, by barcode. */
export async function specimensOf(kernel: Kernel, tx: Queryable, orgId: number, barcodes: string[]) {
  const rows = barcodes.length > 0 ? await kernel.records.find(tx, SPECIMEN, orgId, { barcode: barcodes }) : [];
  return new Map(rows.map((r) => [String(r.data.barcode), r] as const));
}

/** Every barcode added to a slip must be a registered specimen that may be sent (not yet received). */
export async function refuseUnsendable(kernel: Kernel, tx: Queryable, orgId: number, added: string[], locale: Locale) {
  const specimens = await specimensOf(kernel, tx, orgId, added);
  const owner = kernel.screens.owner(SPECIMEN);
  const send = owner?.resource.lifecycle?.transitions.find((x) => x.name === 'send');
  for (const barcode of added) {
    const specimen = specimens.get(barcode);
    if (!specimen)
      throw new InvalidRecord([{ field: 'barcodes', message: t('handover.specimenUnknown', locale, { barcode }) }]);
    const state = String(specimen.data.status ?? '');
    if (send && !send.from.includes(state)) {
      const label =
        optionLabel(
          owner?.fields.find((f) => f.key === 'status'),
          state,
          locale,
        ) ?? state;
      throw new InvalidRecord([
        { field: 'barcodes', message: t('handover.specimenState', locale, { barcode, state: label }) },
      ]);
    }
  }
}

/** Runs one transition on the specimens of some barcodes, inside the handover's transaction. */
export async function moveSpecimens(
  kernel: Kernel,
  tx: Queryable,
  caller: Caller,
  barcodes: string[],
  transition: 'send' | 'recall' | 'receive' | 'markMissing',
  step: { handoverNo: string; set?: Record<string, unknown> },
): Promise<void> {
  const specimens = await specimensOf(kernel, tx, caller.actor.orgId, barcodes);
  const ids = barcodes.flatMap((barcode) => specimens.get(barcode)?.id ?? []);
  if (ids.length > 0)
    await kernel.resources.transitionMany(caller, SPECIMEN, ids, transition, {
      system: true,
      tx,
      set: { lastHandoverNo: step.handoverNo, ...step.set },
      details: { handoverNo: step.handoverNo },
    });
}

import type { Queryable } from '../kernel/db/database.js';
import type { Kernel } from '../kernel/context.js';

/**
 * QC gates patient results (domain: "Quality control"): while the latest QC run of any of an item's
 * plans (a control level on an instrument) is rejected and no conclusion releasing results has been
 * given to it, results of the item entered after that run cannot be approved: an accepted run of
 * another level does not release a failed one. The item's QC is found through the materials made for its code.
 */
export async function qcHoldOf(
  kernel: Kernel,
  tx: Queryable,
  orgId: number,
  itemCode: string,
  testedAt: string,
): Promise<{ violations: string } | undefined> {
  const materials = await kernel.records.find(tx, 'qcMaterial', orgId, { itemCode: [itemCode] });
  if (materials.length === 0) return undefined;
  const plans = await kernel.records.find(tx, 'qcPlan', orgId, { material: materials.map((m) => m.id) });
  for (const plan of plans) {
    // The plan's latest run alone, off the run-time index: a year of a plan is some 700 runs, and every
    // approval of the item's results asks.
    const [run] = await kernel.records.find(
      tx,
      'qcResult',
      orgId,
      { plan: [plan.id] },
      { orderBy: 'runAt', order: 'desc', limit: 1 },
    );
    if (!run?.data.runAt || run.data.status !== 'reject' || String(run.data.runAt) > testedAt) continue;
    const conclusion = run.data.conclusion
      ? await kernel.records.get(tx, 'qcConclusion', orgId, run.data.conclusion)
      : undefined;
    if (conclusion?.data.releasesResults !== true) return { violations: String(run.data.violations ?? '') };
  }
  return undefined;
}

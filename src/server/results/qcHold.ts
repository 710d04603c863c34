import type { Queryable } from '../kernel/db/database.js';
import type { Kernel } from '../kernel/context.js';

/**
 * QC gates patient results (domain: "Quality control"): while the latest QC run of an item is
 * rejected and no conclusion releasing results has been given to it, results of the item entered after
 * that run cannot be approved. The item's QC is found through the materials made for its code.
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
  if (plans.length === 0) return undefined;
  const runs = await kernel.records.find(tx, 'qcResult', orgId, { plan: plans.map((p) => p.id) });
  const latest = runs
    .filter((r) => r.data.runAt)
    .sort((a, b) => String(b.data.runAt).localeCompare(String(a.data.runAt)) || b.id - a.id)[0];
  if (!latest || latest.data.status !== 'reject' || String(latest.data.runAt) > testedAt) return undefined;
  const conclusion = latest.data.conclusion
    ? await kernel.records.get(tx, 'qcConclusion', orgId, latest.data.conclusion)
    : undefined;
  if (conclusion?.data.releasesResults === true) return undefined;
  return { violations: String(latest.data.violations ?? '') };
}

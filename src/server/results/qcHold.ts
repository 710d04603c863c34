import type { Queryable } from '../kernel/db/database.js';
import type { Kernel } from '../kernel/context.js';
import { once } from '../kernel/db/perTransaction.js';

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
  for (const run of await once(tx, `qc:${orgId}:${itemCode}`, () => latestRuns(kernel, tx, orgId, itemCode))) {
    if (run.status !== 'reject' || run.runAt > testedAt) continue;
    if (!run.released) return { violations: run.violations };
  }
  return undefined;
}

/** The latest run of each of the item's plans, and whether a conclusion given to it releases results. */
async function latestRuns(kernel: Kernel, tx: Queryable, orgId: number, itemCode: string) {
  const materials = await kernel.records.find(tx, 'qcMaterial', orgId, { itemCode: [itemCode] });
  if (materials.length === 0) return [];
  const plans = await kernel.records.find(tx, 'qcPlan', orgId, { material: materials.map((m) => m.id) });
  const latest = [];
  for (const plan of plans) {
    // The plan's latest run alone, off the plan's index: a year of a plan is some 700 runs, and every
    // approval of the item's results asks.
    const [run] = await kernel.records.find(
      tx,
      'qcResult',
      orgId,
      { plan: [plan.id] },
      { orderBy: 'runAt', order: 'desc', limit: 1 },
    );
    if (!run?.data.runAt) continue;
    const conclusion = run.data.conclusion
      ? await kernel.records.get(tx, 'qcConclusion', orgId, run.data.conclusion)
      : undefined;
    latest.push({
      status: run.data.status,
      runAt: String(run.data.runAt),
      violations: String(run.data.violations ?? ''),
      released: conclusion?.data.releasesResults === true,
    });
  }
  return latest;
}

import type { Kernel } from '../kernel/context.js';
import { countRecords, stateTiles, type DashboardPart } from '../kernel/dashboard/dashboard.js';
import { anyOfIds, scopeOf, type GroupScope } from '../kernel/dashboard/scope.js';
import type { Queryable } from '../kernel/db/database.js';

const QC_RESULTS = 'qc-result';

/** The plans whose control lot is of an item the groups test (as a rejection's alert finds its testers). */
async function plansOf(kernel: Kernel, db: Queryable, orgId: number, scope: GroupScope): Promise<number[]> {
  const items = await kernel.records.find(db, 'inspectionItem', orgId, { professionalGroup: scope.ids });
  const codes = items.map((i) => String(i.data.code));
  const lots = codes.length ? await kernel.records.find(db, 'qcMaterial', orgId, { itemCode: codes }) : [];
  const plans = lots.length ? await kernel.records.find(db, 'qcPlan', orgId, { material: lots.map((l) => l.id) }) : [];
  return plans.map((p) => p.id);
}

/**
 * Today's QC runs by judgement, of the plans of the user's groups (of the lab, for the front desk and the
 * administrator); a rejected run holds patient results, so it is red.
 */
export function qcDashboard(kernel: Kernel): DashboardPart {
  return {
    watches: ['qcResult'],
    async section({ db, actor, day, scope }) {
      const plans = scope && (await plansOf(kernel, db, actor.orgId, scope));
      const counts = await countRecords(db, {
        resource: 'qcResult',
        orgId: actor.orgId,
        by: 'status',
        dayOf: { field: 'runAt', date: day.date },
        ...(plans && { refersTo: { field: 'plan', ids: plans } }),
      });
      const field = kernel.screens.get(QC_RESULTS)?.fields.find((f) => f.key === 'status');
      return {
        key: 'qc',
        title: { 'zh-CN': '今日质控', 'en-US': "Today's QC" },
        ...scopeOf(scope),
        order: 40,
        tiles: stateTiles(field, counts, {
          prefix: 'qc',
          screen: QC_RESULTS,
          always: ['accept', 'warning', 'reject'],
          tones: { accept: 'good', warning: 'warning', reject: 'danger' },
          query: { ...(plans && { plan: anyOfIds(plans) }), runAt: `${day.date},${day.date}` },
        }),
      };
    },
  };
}

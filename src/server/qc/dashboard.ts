import type { Kernel } from '../kernel/context.js';
import { countRecords, stateTiles, type DashboardPart } from '../kernel/dashboard/dashboard.js';

const QC_RESULTS = 'qc-result';

/** Today's QC runs of the user's lab by judgement; a rejected run holds patient results, so it is red. */
export function qcDashboard(kernel: Kernel): DashboardPart {
  return {
    watches: ['qcResult'],
    async section({ db, actor, day }) {
      const counts = await countRecords(db, {
        resource: 'qcResult',
        orgId: actor.orgId,
        by: 'status',
        dayOf: { field: 'runAt', date: day.date },
      });
      const field = kernel.screens.get(QC_RESULTS)?.fields.find((f) => f.key === 'status');
      return {
        key: 'qc',
        title: { 'zh-CN': '今日质控', 'en-US': "Today's QC" },
        order: 40,
        tiles: stateTiles(field, counts, {
          prefix: 'qc',
          screen: QC_RESULTS,
          always: ['accept', 'warning', 'reject'],
          tones: { accept: 'good', warning: 'warning', reject: 'danger' },
          query: { runAt: `${day.date},${day.date}` },
        }),
      };
    },
  };
}

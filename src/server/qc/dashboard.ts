import type { Kernel } from '../kernel/context.js';
import { countsBy, stateTiles, type DashboardPart } from '../kernel/dashboard/dashboard.js';

const QC_RESULTS = 'qc-result';

/** Today's QC runs of the user's lab by judgement; a rejected run holds patient results, so it is red. */
export function qcDashboard(kernel: Kernel): DashboardPart {
  return {
    watches: ['qcResult'],
    async section({ db, actor, day }) {
      const counts = await countsBy(
        db,
        `select data->>'status' as value, count(*)::int as n from resource_record
          where resource = 'qcResult' and org_id = $1 and left(data->>'runAt', 10) = $2 group by 1`,
        [actor.orgId, day.date],
      );
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

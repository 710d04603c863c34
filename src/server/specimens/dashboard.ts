import type { Kernel } from '../kernel/context.js';
import { countRecords, stateTiles, type DashboardPart } from '../kernel/dashboard/dashboard.js';

/** The everyday intake screen: what a count of specimens opens. */
const INTAKE = 'front-entry';

/**
 * Today's specimens of the user's lab by state (entered today, Beijing time), each opening the intake
 * list filtered by that state; and how many were entered today in all.
 */
export function specimenDashboard(kernel: Kernel): DashboardPart {
  return {
    watches: ['specimen'],
    async section({ db, actor, day }) {
      const counts = await countRecords(db, {
        resource: 'specimen',
        orgId: actor.orgId,
        by: 'status',
        createdIn: day,
      });
      const field = kernel.screens.get(INTAKE)?.fields.find((f) => f.key === 'status');
      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      return {
        key: 'specimens',
        title: { 'zh-CN': '今日标本', 'en-US': "Today's specimens" },
        order: 10,
        tiles: [
          {
            key: 'specimens.entered',
            label: { 'zh-CN': '今日录入', 'en-US': 'Entered today' },
            count: total,
            tone: 'normal',
            link: { screen: INTAKE, query: {} },
          },
          ...stateTiles(field, counts, {
            prefix: 'specimens',
            screen: INTAKE,
            always: ['registered', 'received', 'inTesting', 'reported'],
            tones: { rejected: 'danger', missing: 'danger', reported: 'good' },
          }),
        ],
      };
    },
  };
}

import type { Kernel } from '../kernel/context.js';
import type { Queryable } from '../kernel/db/database.js';
import { countRecords, stateTiles, type DashboardPart } from '../kernel/dashboard/dashboard.js';
import { anyOfIds, scopeOf, type GroupScope } from '../kernel/dashboard/scope.js';

/** The everyday intake screen: what a count of specimens opens. */
const INTAKE = 'front-entry';

/** The inspection purposes that order an item of one of the groups: a specimen of the groups orders one. */
async function purposesOf(kernel: Kernel, db: Queryable, orgId: number, scope: GroupScope): Promise<number[]> {
  const items = new Set(
    (await kernel.records.find(db, 'inspectionItem', orgId, { professionalGroup: scope.ids })).map((i) => i.id),
  );
  const purposes = await kernel.records.find(db, 'inspectionPurpose', orgId);
  return purposes
    .filter((p) => (Array.isArray(p.data.items) ? p.data.items : []).some((item) => items.has(Number(item))))
    .map((p) => p.id);
}

/**
 * Today's specimens by state (entered today, in the lab's time zone) of the user's groups (those that
 * order an item the groups test; the whole lab for the front desk and the administrator), each opening
 * the intake list filtered the same way; and how many were entered today in all.
 */
export function specimenDashboard(kernel: Kernel): DashboardPart {
  return {
    watches: ['specimen'],
    async section({ db, actor, day, scope }) {
      const purposes = scope && (await purposesOf(kernel, db, actor.orgId, scope));
      const counts = await countRecords(db, {
        resource: 'specimen',
        orgId: actor.orgId,
        by: 'status',
        dayOf: { field: 'enteredAt', date: day.date },
        ...(purposes && { refersTo: { field: 'purposes', ids: purposes } }),
      });
      const query = {
        enteredAt: `${day.date},${day.date}`,
        ...(purposes && { purposes: anyOfIds(purposes) }),
      };
      const field = kernel.screens.get(INTAKE)?.fields.find((f) => f.key === 'status');
      const total = [...counts.values()].reduce((a, b) => a + b, 0);
      return {
        key: 'specimens',
        title: { 'zh-CN': '今日标本', 'en-US': "Today's specimens" },
        ...scopeOf(scope),
        order: 10,
        tiles: [
          {
            key: 'specimens.entered',
            label: { 'zh-CN': '今日录入', 'en-US': 'Entered today' },
            count: total,
            tone: 'normal',
            link: { screen: INTAKE, query },
          },
          ...stateTiles(field, counts, {
            prefix: 'specimens',
            screen: INTAKE,
            always: ['registered', 'received', 'inTesting', 'reported'],
            tones: { rejected: 'danger', missing: 'danger', reported: 'good' },
            query,
          }),
        ],
      };
    },
  };
}

import type { Kernel } from '../kernel/context.js';
import { countRecords, stateTiles, type DashboardPart } from '../kernel/dashboard/dashboard.js';
import { anyOfIds, scopeOf } from '../kernel/dashboard/scope.js';

/** The results work list: what a count of results opens. */
const RESULTS = 'general-inspection';

/**
 * The results waiting for someone in the user's groups (the whole lab for the front desk and the
 * administrator): critical values nobody has acknowledged yet (they hold the audit and the clinic must be
 * told), and results waiting for their first review or audit.
 */
export function resultDashboard(kernel: Kernel): DashboardPart {
  return {
    watches: ['inspectionResult'],
    async section({ db, actor, scope }) {
      const groups = scope && { field: 'professionalGroup', ids: scope.ids };
      const results = { resource: 'inspectionResult', orgId: actor.orgId, ...(groups && { refersTo: groups }) };
      const inGroups: Record<string, string> = scope ? { professionalGroup: anyOfIds(scope.ids) } : {};
      const counts = await countRecords(db, {
        ...results,
        by: 'status',
        oneOf: { field: 'status', values: ['tested', 'firstReviewed'] },
      });
      const critical =
        (await countRecords(db, { ...results, by: 'critical', empty: 'criticalAckAt' })).get('true') ?? 0;
      const field = kernel.screens.get(RESULTS)?.fields.find((f) => f.key === 'status');
      return {
        key: 'results',
        title: { 'zh-CN': '结果与危急值', 'en-US': 'Results and critical values' },
        ...scopeOf(scope),
        order: 30,
        tiles: [
          {
            key: 'results.critical',
            label: { 'zh-CN': '未确认的危急值', 'en-US': 'Unacknowledged critical values' },
            count: critical,
            tone: critical > 0 ? 'danger' : 'good',
            link: { screen: RESULTS, query: { ...inGroups, critical: 'true' } },
          },
          ...stateTiles(field, counts, {
            prefix: 'results',
            screen: RESULTS,
            always: ['tested', 'firstReviewed'],
            query: inGroups,
          }),
        ],
      };
    },
  };
}

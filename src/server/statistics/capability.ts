import type { Capability } from '../kernel/capability.js';
import { statisticsRoutes } from './routes.js';
import { offsetAt } from './period.js';
import { targetsConfigKind } from './targets.js';

/**
 * Statistics (spec 2.2 /kibana): figures computed in the database from the lab's lifecycle facts
 * (migration 15 keeps them as steps happen); the turnaround targets are a per-lab setting. Turnarounds
 * are also counted per lab month (migration 16), in the months of the clock the server starts with.
 */
export const statistics: Capability = {
  name: 'statistics',
  routes: statisticsRoutes,
  configKinds: [targetsConfigKind],
  seed: {
    always: async (tx) => {
      await tx.query('select stat_set_clock($1::int)', [offsetAt(new Date())]);
    },
  },
};

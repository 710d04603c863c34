import type { Capability } from '../kernel/capability.js';
import { statisticsRoutes } from './routes.js';
import { targetsConfigKind } from './targets.js';

/**
 * Statistics (spec 2.2 /kibana): figures computed in the database from the lab's lifecycle facts
 * (migration 15 keeps them as steps happen); the turnaround targets are a per-lab setting.
 */
export const statistics: Capability = {
  name: 'statistics',
  routes: statisticsRoutes,
  configKinds: [targetsConfigKind],
};

import type { Capability } from '../kernel/capability.js';
import { statisticsRoutes } from './routes.js';

/** Statistics (spec 2.2 /kibana): figures computed from the lab's records. */
export const statistics: Capability = { name: 'statistics', routes: statisticsRoutes };

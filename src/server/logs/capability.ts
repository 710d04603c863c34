import type { Capability } from '../kernel/capability.js';
import { logRoutes } from './routes.js';

/** The operation log (spec 7.7): read, exported and emptied by administrators. */
export const logs: Capability = { name: 'logs', routes: logRoutes };

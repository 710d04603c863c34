import type { Capability } from '../kernel/capability.js';
import { customConfigRoutes } from './routes.js';

/** Per-lab custom configuration (spec 7.2 getCustomConfig / updateCustomConfig), by the kinds capabilities declare. */
export const customConfig: Capability = { name: 'customConfig', routes: customConfigRoutes };

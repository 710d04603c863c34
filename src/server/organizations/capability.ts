import type { Capability } from '../kernel/capability.js';
import { organizationSeed } from './demo.js';
import { organizationRoutes } from './routes.js';
import { ORGANIZATION_TABLE } from './screen.js';

/** The base organisation and its laboratories (spec 7.3; organisation structure screen). */
export const organizations: Capability = {
  name: 'organizations',
  routes: organizationRoutes,
  tables: [ORGANIZATION_TABLE],
  seed: organizationSeed,
};

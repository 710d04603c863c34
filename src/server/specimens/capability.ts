import type { Capability } from '../kernel/capability.js';
import { specimenEntry } from './entry.js';
import { specimenRejection } from './rejection.js';
import { specimenRoutes } from './routes.js';
import { specimenDashboard } from './dashboard.js';

/**
 * Specimens (spec 2.2 sample pre-processing; domain "Specimen lifecycle"): the one specimen record's
 * rules (who entered it, what a rejection leaves), its labels and the bench's scan lookup, and the
 * specimen characters' public-data calls of spec 7.6. Its lifecycle is declared in its screen.
 */
export const specimens: Capability = {
  name: 'specimens',
  routes: specimenRoutes,
  hooks: () => [specimenEntry, specimenRejection],
  dashboard: specimenDashboard,
};
